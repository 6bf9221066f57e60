"""The dead-code check: every function, class, constant and attribute of the book's code has a caller.

``python -m tools.deadcode`` runs vulture over the book's Python (``widgets/``, ``book/_ext/``, ``tools/``,
``bench/``, ``classroom/`` and ``tests/``, whose uses count) together with the code cells of every chapter,
book page and dashboard (a figure only a chapter draws is used), and prints what nothing uses; exit status 1
when anything is listed. What only a framework calls (Sphinx hooks, ``http.server`` and ``HTMLParser``
methods, IPython's ``_repr_html_``, a class named on a command line) is listed, with why, in
``tools/vulture_allow.py``: keep that list short.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("widgets", "book/_ext", "tools", "bench", "classroom", "tests")
#: Configuration files whose every line sets an attribute a server reads: not code with callers.
SKIPPED = ("classroom/jupyterhub_config.py",)
MIN_CONFIDENCE = 60
CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```\s*$", re.S | re.M)


def page_cells() -> list[str]:
    """The code of every chapter's, book page's and dashboard's code cells (options and magics left out)."""
    cells = []
    for page in sorted(ROOT.glob("chapters/*.md")) + sorted(ROOT.glob("book/*.md")):
        for found in CELL.finditer(page.read_text(encoding="utf-8")):
            lines = found.group(1).splitlines()
            while lines and lines[0].startswith(":"):
                lines.pop(0)
            cells.append("\n".join(line for line in lines if not line.lstrip().startswith(("%", "!"))))
    for notebook in sorted(ROOT.glob("dashboards/*.ipynb")):
        cells += ["".join(c["source"]) for c in json.loads(notebook.read_text(encoding="utf-8"))["cells"]
                  if c["cell_type"] == "code"]
    return cells


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="db2book-deadcode-") as tmp:
        for n, code in enumerate(page_cells()):
            (Path(tmp) / f"cell_{n:03d}.py").write_text(code, encoding="utf-8")
        out = subprocess.run(
            [sys.executable, "-m", "vulture", *SCANNED, tmp, "tools/vulture_allow.py",
             f"--min-confidence={MIN_CONFIDENCE}", "--exclude", ",".join(SKIPPED)],
            cwd=ROOT, capture_output=True, text=True)
        # the pages' cells and the tests are read for their uses; what they define themselves is not checked
        found = [line for line in out.stdout.splitlines() if not line.startswith((tmp, "tests/"))]
    if out.returncode not in (0, 3) or out.stderr.strip():  # 3: vulture found dead code
        print(out.stderr or out.stdout, file=sys.stderr)
        return 2
    print("\n".join(found) if found else "no dead code")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
