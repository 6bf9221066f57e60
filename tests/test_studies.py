"""The study registry (widgets/studies.py): one list of studies, figures found by name, light model imports."""
from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from widgets import fitting
from widgets.studies import NOTES, SLUGS, STUDIES, all_figures, study

ROOT = Path(__file__).resolve().parent.parent
PLOTTING = ("altair", "vega_datasets", "vl_convert", "ipywidgets")


def test_every_study_has_its_package_chapter_data_and_dashboard():
    for s in STUDIES:
        assert (ROOT / "widgets" / s.slug / "figures.py").is_file(), s.slug
        assert (ROOT / "data" / s.slug / "sources.csv").is_file(), s.slug
        assert (ROOT / "dashboards" / f"{s.slug}.ipynb").is_file(), s.slug
        chapter = (ROOT / "chapters" / f"{s.slug}.md").read_text(encoding="utf-8")
        heading = re.search(r"^# (.+)$", chapter, re.MULTILINE).group(1)
        assert heading == s.title, f"{s.slug}: STUDIES says {s.title!r}, the chapter is headed {heading!r}"


def test_the_book_order_is_the_table_of_contents_order():
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    listed = [slug for slug in re.findall(r"chapters/(\w+)", toc) if slug in SLUGS]
    assert listed == list(SLUGS)


def test_an_unknown_study_or_figure_is_named_with_the_valid_ones():
    with pytest.raises(ValueError, match="large_memory, hit_ratio_dead"):
        study("large_memroy")
    with pytest.raises(ValueError, match="backlog_utilisation"):
        study("system_recovery_boost").figure("backlog_util")


@pytest.mark.parametrize("s", STUDIES, ids=lambda s: s.slug)
def test_every_declared_figure_opens_in_its_studys_explorer(s):
    """``explorer(name)`` for each figure name the chapter declares: the lookup that once raised
    AttributeError for System Recovery Boost's "backlog_utilisation" (its constant was BACKLOG_UTIL)."""
    explorer = s.module("explorer").explorer
    for name in s.figures():
        ex = explorer(name)
        assert [c._dom_classes for c in ex.charts] == [("db2book-chart-live", f"figure-{name}")]
        assert ex.charts[0].value.startswith("<svg"), f"{s.slug}.{name} did not draw"
    with pytest.raises(ValueError, match=", ".join(list(s.figures())[:2])):
        explorer("no_such_figure")
    assert [fig.name for fig in explorer().figures] == list(s.explore)


def test_figure_keys_are_unique_and_qualified():
    figures = all_figures()
    assert len(figures) == sum(len(s.figures()) for s in STUDIES)
    assert all(key == f"{fig.study}.{fig.name}" and fig.study in SLUGS for key, fig in figures.items())


MODULES = [f"widgets.{s.slug}.{m}" for s in STUDIES for m in ("model", "calibration", "exercises")
           if (ROOT / "widgets" / s.slug / f"{m}.py").is_file()]


def test_importing_a_model_loads_no_plotting_library():
    """Models, calibrations and exercise generators are pure numpy: a kernel that only needs them
    (an exercise, a dashboard's first import) does not pay for Altair, nor change its renderer."""
    code = ("import importlib, json, sys\n"
            f"for name in {MODULES!r}:\n"
            "    importlib.import_module(name)\n"
            f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {PLOTTING!r})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert json.loads(out.stdout) == []
    # the check can fail: the figures module does load Altair
    code_figures = code.replace(repr(MODULES), repr(["widgets.zhyperlink.figures"]))
    out = subprocess.run([sys.executable, "-c", code_figures], capture_output=True, text=True, cwd=ROOT, check=True)
    assert "altair" in json.loads(out.stdout)


def _imports(path: Path) -> list[str]:
    """Absolute names of the widgets modules ``path`` imports (relative imports resolved)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            names += [module] + [f"{module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names += [a.name for a in node.names]
    return [n for n in names if n.startswith("widgets")]


def _module_imports(path: Path) -> set[str]:
    """What ``path`` imports from the book's own code: a module of its own study (``"model"``) or of the
    shared package (``"widgets.fitting"``); a name imported from a module counts as that module."""
    slug = path.parent.name
    own = {p.stem for p in path.parent.glob("*.py")} - {"__init__"}
    out = set()
    for name in _imports(path):
        parts = name.split(".")
        if parts[:2] == ["widgets", slug]:
            if len(parts) > 2 and parts[2] in own:
                out.add(parts[2])
        elif len(parts) > 1 and (ROOT / "widgets" / f"{parts[1]}.py").is_file():
            out.add(f"widgets.{parts[1]}")
    return out


def _contract() -> dict[str, set[str]]:
    """The README's "Adding a study" table: each study module and what it may import (book code only)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Adding a study", 1)[1].split("\n## ", 1)[0]
    contract = {}
    for row in section.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        found = re.fullmatch(r"`widgets/<slug>/(\w+)\.py`", cells[0])
        if found:
            allowed = re.sub(r"\(never [^)]*\)", "", cells[2])
            contract[found.group(1)] = set(re.findall(r"`([\w.]+)`", allowed))
    return contract


CONTRACT = _contract()


def test_the_readme_states_the_study_contract():
    assert set(CONTRACT) == {"__init__", "published", "model", "calibration", "fidelity", "figures", "explorer",
                             "exercises"}
    assert CONTRACT["__init__"] == set() and "widgets.data" in CONTRACT["published"]


@pytest.mark.parametrize("s", STUDIES + NOTES, ids=lambda s: s.slug)
def test_every_study_module_imports_only_what_the_readme_allows(s):
    """The README's table is the contract: a study module imports only what its row names, plus the
    study's own helper modules (a module the table does not name, such as a simulator, is part of the
    model), and no helper imports a figure, an explorer or the ledger rows."""
    folder = ROOT / "widgets" / s.slug
    helpers = {p.stem for p in folder.glob("*.py")} - set(CONTRACT)
    for path in sorted(folder.glob("*.py")):
        imported = _module_imports(path)
        if path.stem in CONTRACT:
            allowed = CONTRACT[path.stem] | (helpers if path.stem != "__init__" else set())
            assert imported <= allowed, f"{s.slug}/{path.name} imports {sorted(imported - allowed)}"
        else:
            assert not imported & {"figures", "explorer", "fidelity"}, f"{s.slug}/{path.name}: {sorted(imported)}"


@pytest.mark.parametrize("s", STUDIES + NOTES, ids=lambda s: s.slug)
def test_every_study_follows_the_scenario_contract(s):
    """The README's shape: ``calibration`` exports ``Scenario`` (a dataclass) and ``scenario(values)``, which
    refuses a name it does not know and reads every one it does (moving any slider of the study changes the
    scenario: no name passes through unread); every figure's curve takes ``(x, scenario)`` and
    ``Figure.evaluate`` makes the scenario from the sliders."""
    import dataclasses
    import inspect

    cal = s.module("calibration")
    assert dataclasses.is_dataclass(cal.Scenario) and callable(cal.scenario), s.slug
    with pytest.raises(ValueError, match="no field named 'no_such_slider'"):
        cal.scenario({"no_such_slider": 1.0})
    for fig in s.figures().values():
        assert fig.scenario is None, f"{fig.key}: a study's figure takes its study's calibration.scenario"
        assert len(inspect.signature(fig.curves).parameters) == 2, f"{fig.key}: a curve takes (x, scenario)"
        at_defaults = fig.scenario_at()
        assert isinstance(at_defaults, cal.Scenario), fig.key
        for p in fig.all_params:
            moved = p.default + p.step if p.default + p.step <= p.max else p.default - p.step
            assert fig.scenario_at(**{p.name: moved}) != at_defaults, f"{fig.key}: {p.name} is read by no one"


@pytest.mark.parametrize("s", STUDIES, ids=lambda s: s.slug)
def test_every_studys_explorer_and_dashboard_are_explorers(s):
    """``explorer(*names)`` and ``dashboard()`` of every study give a :class:`widgets.explorer.Explorer` (a
    study's own tools go inside it, after the charts), as their signatures say."""
    import inspect

    module = s.module("explorer")
    for name in ("explorer", "dashboard"):
        assert inspect.signature(getattr(module, name)).return_annotation == "Explorer", f"{s.slug}.{name}"


def test_scenario_replaces_named_fields_and_refuses_unknown_ones():
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Setting:
        a: float = 1.0
        b: float = 2.0

    assert fitting.scenario(Setting(), {"b": 5.0}) == Setting(1.0, 5.0)
    with pytest.raises(ValueError, match=r"Setting: no field named 'c'; the fields are a, b"):
        fitting.scenario(Setting(), {"c": 1.0})


def test_relative_linear_least_squares_weights_each_point_by_its_size():
    import numpy as np

    x, y = np.array([1.0, 10.0]), np.array([2.0, 10.0])  # c x: 2 at 1 and 10 at 10 cannot both hold
    (c,) = fitting.relative_linear_least_squares(x, y)
    # relative residuals c/2 - 1 and c - 1 balance at c = 1.2; an absolute fit, ruled by the larger point, gives 102/101
    assert c == pytest.approx(1.2)
    assert fitting.rms([0.03, -0.04]) == pytest.approx(0.0353553, rel=1e-5)
    assert fitting.band(0.0123) == pytest.approx(0.025)


def _study_lists(path: Path) -> list[int]:
    """Lines where a tuple, list, set or dict literal names three or more studies (as "slug" or "chapters/slug")."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        items = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", None)
        if not isinstance(node, (ast.Tuple, ast.List, ast.Set, ast.Dict)) or not items:
            continue
        named = {re.sub(r"^chapters/", "", k.value) for k in items if isinstance(k, ast.Constant)
                 and isinstance(k.value, str)} & set(SLUGS)
        if len(named) >= 3:
            found.append(node.lineno)
    return found


def test_the_list_of_studies_is_typed_once():
    """No file but widgets/studies.py lists the studies by name (the rest read STUDIES)."""
    files = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    listing = {f: lines for f in files if (ROOT / f).is_file() and (lines := _study_lists(ROOT / f))}
    assert listing == {}, f"lists of studies typed out (file: lines): {listing}"
