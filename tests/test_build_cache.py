"""The execution cache (book/_ext/exec_cache.py) and the parallel pre-execution (tools/execute.py):
a change to anything a notebook's outputs depend on empties the cache, and the notebooks executed
ahead of the build are the ones the build reads (same jupyter-cache hash)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))

import exec_cache  # noqa: E402

from tools import execute  # noqa: E402


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "widgets" / "study").mkdir(parents=True)
    (tmp_path / "widgets" / "study" / "model.py").write_text("A = 1\n")
    (tmp_path / "data" / "study").mkdir(parents=True)
    (tmp_path / "data" / "study" / "t1.csv").write_text("x\n1\n")
    (tmp_path / "_config.yml").write_text("title: t\n")
    return tmp_path


def test_the_key_is_stable(tree):
    assert exec_cache.code_key(tree) == exec_cache.code_key(tree)


@pytest.mark.parametrize("change", [
    lambda t: (t / "widgets" / "study" / "model.py").write_text("A = 2\n"),
    lambda t: (t / "data" / "study" / "t1.csv").write_text("x\n2\n"),
    lambda t: (t / "data" / "study" / "t2.csv").write_text("x\n1\n"),
    lambda t: (t / "widgets" / "study" / "model.py").rename(t / "widgets" / "study" / "other.py"),
    lambda t: (t / "_config.yml").write_text("title: u\n"),
    lambda t: (t / "requirements.txt").write_text("numpy==2.4.6\n"),
], ids=["model edited", "table edited", "table added", "module renamed", "config", "requirements"])
def test_the_key_changes_with_what_the_outputs_depend_on(tree, change):
    before = exec_cache.code_key(tree)
    change(tree)
    assert exec_cache.code_key(tree) != before


def test_the_key_changes_with_a_db2book_variable(tree, monkeypatch):
    before = exec_cache.code_key(tree)
    monkeypatch.setenv("DB2BOOK_BUILD", "0" if os.environ.get("DB2BOOK_BUILD") == "1" else "1")
    assert exec_cache.code_key(tree) != before


def test_compiled_files_do_not_change_the_key(tree):
    before = exec_cache.code_key(tree)
    (tree / "widgets" / "study" / "__pycache__").mkdir()
    (tree / "widgets" / "study" / "__pycache__" / "model.cpython-311.pyc").write_bytes(b"\0")
    assert exec_cache.code_key(tree) == before


def test_a_cache_of_another_key_is_emptied_and_of_this_key_kept(tmp_path):
    folder = tmp_path / "_build" / ".jupyter_cache"
    assert exec_cache.prepare(folder, "k1") is False  # none yet
    folder.mkdir()
    (folder / "global.db").write_text("outputs")
    assert exec_cache.prepare(folder, "k1") is True and (folder / "global.db").exists()
    assert exec_cache.prepare(folder, "k2") is False and not folder.exists()
    assert exec_cache.prepare(folder, "k2") is False  # emptied, and nothing cached under k2 yet
    folder.mkdir()
    assert exec_cache.prepare(folder, "k2") is True


def test_the_pre_executor_runs_the_toc_notebooks():
    pages = {p.relative_to(ROOT).with_suffix("").as_posix() for p in execute.toc_notebooks()}
    assert {"book/fidelity", "book/zedc"} <= pages
    assert {p.relative_to(ROOT).with_suffix("").as_posix() for p in ROOT.glob("chapters/*.md")} <= pages
    assert "book/glossary" not in pages and "book/intro" not in pages  # no code cells


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    from jupyter_cache import get_cache

    return get_cache(str(tmp_path_factory.mktemp("jupyter_cache")))


@pytest.mark.parametrize("path", execute.toc_notebooks(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_pre_executor_reads_a_page_as_the_build_does(path, cache):
    """Same jupyter-cache hash as the notebook myst-nb's reader makes in the build (else the build runs it again)."""
    from myst_nb.core.config import NbParserConfig
    from myst_nb.core.read import create_nb_reader
    from myst_parser.config.main import MdParserConfig

    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    md = MdParserConfig(enable_extensions=set(config["parse"]["myst_enable_extensions"]))
    text = path.read_text(encoding="utf-8")
    reader = create_nb_reader(str(path), md, NbParserConfig(), text)
    assert reader is not None and reader.read_fmt == {"type": "plugin", "name": "myst_nb_md"}
    built = cache.create_hashed_notebook(reader.read(text))[1]
    assert cache.create_hashed_notebook(execute.read(path))[1] == built
    last = text.rindex("\n```")  # and the hash sees an edited code cell
    changed = text[:last] + "\n# edited" + text[last:]
    assert cache.create_hashed_notebook(reader.read(changed))[1] != built
