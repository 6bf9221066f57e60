"""The book stands on its own: no machine's paths, one repository URL, the source texts found through one
setting, and citations a reader can follow (the document's own section, table, figure and page; never a line
of our text extraction)."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tools import seeds, sections
from widgets import ledger
from widgets.citations import LINE_REFERENCE, flagged, for_readers, reader_facing
from widgets.data import data_dir, documents, sources

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "_build" / "html"
STUDIES = sorted(p.parent.name for p in data_dir().glob("*/sources.csv"))
#: What is not the project's own text: tools' output, installed packages, the build, git's own files.
SKIP_DIRS = {".git", ".venv", "node_modules", "_build", "__pycache__", ".pytest_cache", ".hypothesis",
             ".ipynb_checkpoints", "bench/results"}
#: An absolute path on some machine: a home, root's home, a work or scratch mount, a Windows profile.
MACHINE_PATH = re.compile("|".join([r"(?<![\w.~-])/(?:work|root|home|Users|mnt|scratch|srv)/",
                                    r"\b[A-Za-z]:\\(?:Users|work)\\"]))


def _project_files():
    for path in sorted(ROOT.rglob("*")):
        rel = path.relative_to(ROOT).as_posix()
        if path.is_file() and not any(rel == d or rel.startswith(d + "/") or f"/{d}/" in f"/{rel}"
                                      for d in SKIP_DIRS):
            yield rel, path


# --- no machine's paths -------------------------------------------------------------------------


def test_the_machine_path_pattern_catches_what_it_should():
    slash = "/"  # the examples are built, so that this file names no machine's path itself
    assert MACHINE_PATH.search(f"see {slash}work{slash}shared/seeds") and MACHINE_PATH.search(f"{slash}home{slash}ann")
    assert MACHINE_PATH.search(f"{slash}root{slash}.cache")
    assert MACHINE_PATH.search("C:" + "\\" + "Users" + "\\" + "ann")
    assert not MACHINE_PATH.search("../shared/seeds") and not MACHINE_PATH.search("data/work/x.csv")
    assert not MACHINE_PATH.search("https://example.org/home/x")  # a URL path, not a machine's


def test_no_file_names_an_absolute_path_of_a_machine():
    hits = []
    for rel, path in _project_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), start=1):
            if MACHINE_PATH.search(line):
                hits.append(f"{rel}:{n}: {line.strip()[:100]}")
    assert not hits, "absolute machine paths:\n" + "\n".join(hits)


# --- the source texts: one setting --------------------------------------------------------------


def test_seeds_default_beside_the_repository(monkeypatch):
    monkeypatch.delenv(seeds.ENV, raising=False)
    assert seeds.folder() == ROOT.parent / "shared" / "seeds" and not seeds.required()


def test_seeds_missing_without_the_setting_skip_with_one_line(monkeypatch, tmp_path):
    monkeypatch.delenv(seeds.ENV, raising=False)
    monkeypatch.setattr(seeds, "DEFAULT", tmp_path / "nowhere")
    reason = seeds.missing_reason("004_f768f5134630e6bd.txt")
    assert reason and "\n" not in reason and seeds.ENV in reason and "004_f768f5134630e6bd.txt" in reason


def test_seeds_named_by_the_setting_are_found(monkeypatch, tmp_path):
    (tmp_path / "002_0dd9d95ee22b6422.txt").write_text("one\ntwo\n", encoding="utf-8")
    monkeypatch.setenv(seeds.ENV, str(tmp_path))
    assert seeds.missing_reason("002_0dd9d95ee22b6422.txt") is None
    assert seeds.lines("002_0dd9d95ee22b6422.txt")[1] == "two"


def test_seeds_missing_from_the_named_folder_fail_instead_of_skipping(monkeypatch, tmp_path):
    monkeypatch.setenv(seeds.ENV, str(tmp_path))
    with pytest.raises(FileNotFoundError, match=seeds.ENV):
        seeds.missing_reason("004_f768f5134630e6bd.txt")
    done = subprocess.run([sys.executable, "-m", "tools.seeds"], cwd=ROOT, capture_output=True, text=True,
                          env={"PATH": "", seeds.ENV: str(tmp_path)})
    assert done.returncode == 1 and "004_f768f5134630e6bd.txt" in done.stdout


def test_ci_names_the_texts_and_stops_without_them():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert f"export {seeds.ENV}=" in ci and "python3 -m tools.seeds" in ci
    assert ci.index("python3 -m tools.seeds") < ci.index("\nmake test")


def test_every_cited_text_is_a_known_seed_with_a_document():
    docs = documents()
    assert set(docs["seed"]) == set(seeds.NAMES)
    for study in STUDIES:
        assert set(sources(study)["seed"]) <= set(seeds.NAMES), study


@pytest.mark.skipif(any(seeds.missing_reason(n) for n in (sections.REDBOOK, sections.BRIEF)),
                    reason=seeds.missing_reason(sections.REDBOOK) or seeds.missing_reason(sections.BRIEF) or "")
def test_the_stored_section_index_is_what_the_texts_give():
    assert (data_dir() / "sections.csv").read_text(encoding="utf-8") == sections.build()


# --- citations a reader can follow ---------------------------------------------------------------


def test_reader_facing_tells_a_citation_from_a_line():
    assert reader_facing("Db2 13 Performance Topics, SG24-8536 (2022), §3.10, Figure 3-30")
    assert not reader_facing("Db2 13 Performance Topics, SG24-8536 (2022), Section 3.10, line 5094")
    assert not reader_facing("004_f768f5134630e6bd.txt, Table 4-2")  # our file, not the document


def test_the_section_index_places_known_tables():
    from widgets.citations import cite, section_at

    assert section_at(sections.REDBOOK, 5094) == "§3.10.4"
    assert cite("fast_index_traversal", "t4_2_two_way_ds.csv", line=9000) == \
        "Db2 13 Performance Topics, SG24-8536 (2022), §4.2.2, Table 4-2, p. 154"
    assert cite("large_memory", "t04_isolated_results.csv", line=450).endswith("§5.1, Table 4, p. 19")


@pytest.mark.parametrize("study", STUDIES)
def test_sources_pages_name_pages_or_slides_not_lines(study):
    for row in sources(study).itertuples():
        assert not LINE_REFERENCE.search(row.page) and not LINE_REFERENCE.search(row.table), row
        assert re.fullmatch(r"|(?:pp?\. [\d-]+|slides? \d+)(?: or \d+)?(?: \((?:inferred|inferred end)\))?",
                            row.page), row.page


@pytest.mark.parametrize("study", STUDIES)
def test_flagged_cells_are_explained_without_lines(study):
    flags = flagged(study)
    for where, why in zip(flags["where"], flags["why"]):
        assert not LINE_REFERENCE.search(where) and not LINE_REFERENCE.search(why), (where, why)


def test_notes_that_name_lines_are_translated():
    text = for_readers("zhyperlink", "(line 5076, read environment) against line 5257")
    assert text == "(§3.10.4, read environment) against §3.10.7"


def test_no_ledger_row_names_a_line_of_the_text():
    bad = [r.source for r in ledger.rows() if not reader_facing(r.source)]
    assert not bad, bad


@pytest.mark.skipif(not (SITE / "index.html").exists(), reason="run `make book` first")
def test_no_built_page_cites_a_line_of_a_text():
    """Prose, tables, chart tooltips (the specs are in the page) and the ledger, as readers get them."""
    hits = []
    for page in sorted(SITE.rglob("*.html")):
        rel = page.relative_to(SITE).as_posix()
        if rel.startswith(("_sources/", "_static/", "genindex", "search")):
            continue
        text = page.read_text(encoding="utf-8")
        hits += [f"{rel}: …{text[max(0, m.start() - 60):m.end() + 10]}…" for m in LINE_REFERENCE.finditer(text)]
    assert not hits, "\n".join(hits[:20])


def test_ledger_json_sources_cite_documents():
    done = subprocess.run([sys.executable, "-m", "widgets", "fidelity", "--json"], cwd=ROOT, capture_output=True,
                          text=True)
    rows = json.loads(done.stdout)
    rows = rows["rows"] if isinstance(rows, dict) else rows
    bad = [r["source"] for r in rows if not reader_facing(r["source"])]
    assert rows and not bad, bad[:5]


# --- one repository URL ----------------------------------------------------------------------------


def _repository_url() -> str:
    return yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["repository"]["url"]


def test_the_repository_url_is_one_value_in_the_config():
    url = _repository_url()
    assert re.fullmatch(r"https://github\.com/[\w.-]+/[\w.-]+", url), url
    slug = url.removeprefix("https://github.com/")
    elsewhere = [rel for rel, path in _project_files() if rel != "_config.yml" and path.suffix != ".png"
                 and slug in path.read_text(encoding="utf-8", errors="ignore")]
    assert not elsewhere, f"the repository ({slug}) is named outside _config.yml: {elsewhere}"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "repository:" in readme and "url:" in readme  # the README says how a fork sets it


@pytest.mark.skipif(not (SITE / "index.html").exists(), reason="run `make book` first")
def test_built_launch_and_repository_links_use_the_config_url():
    url = _repository_url()
    slug = url.removeprefix("https://github.com/")
    html = (SITE / "chapters" / "large_memory.html").read_text(encoding="utf-8")
    links = re.findall(r'href="(https://[^"]+)"', html)
    repo_links = [h for h in links if "github.com" in h or "mybinder.org" in h]
    assert any(h.startswith(url) for h in repo_links), repo_links  # the repository button
    assert any("mybinder.org" in h and slug in h for h in repo_links), repo_links  # Binder
    assert all(slug in h for h in repo_links), repo_links
