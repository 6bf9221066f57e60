"""What a student's browser builds: the widget models of each dashboard (bench/README.md, 4c)."""
from __future__ import annotations

import json
import subprocess
import sys

from widgets.studies import STUDIES

from bench.common import NO_GOAL, ROOT, Rows


# --- 4c. what a student's browser builds ----------------------------------------------------

#: Counts the widget models a dashboard sends the browser at its first render (each one a view to build).
_COUNT_MODELS = """
import collections, importlib, json, sys
import ipywidgets.widgets.widget as ww
before = set(ww._instances)
importlib.import_module(f"widgets.{sys.argv[1]}.explorer").dashboard()
made = [ww._instances[k] for k in set(ww._instances) - before]
kinds = collections.Counter(type(x).__name__ for x in made)
print(json.dumps({"models": len(made), "layouts_and_styles": sum(n for k, n in kinds.items()
                                                                 if k == "Layout" or k.endswith("Style"))}))
"""


def bench_dashboard_widgets(rows: Rows) -> None:
    """Widget models each chapter's dashboard holds at its first render, each in a fresh kernel-like process
    (the browser builds a view for each; a class of laptops opening the page pays for every one)."""

    for s in STUDIES:
        name = f"dashboard {s.slug}: widget models at first render"
        try:
            out = subprocess.run([sys.executable, "-c", _COUNT_MODELS, s.slug], cwd=ROOT, capture_output=True,
                                 text=True, timeout=300, check=True)
            got = json.loads(out.stdout.strip().splitlines()[-1])
        except Exception as exc:  # noqa: BLE001
            rows.failed(name, "models", NO_GOAL, exc)
            continue
        rows.measured(name, got["models"], "models",
                      note=f"{got['layouts_and_styles']} of them layouts and styles (shared where alike); "
                           "a tab's controls are made when it is opened")
