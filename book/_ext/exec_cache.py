"""Sphinx extension: a notebook-execution cache that cannot go stale.

myst-nb's ``cache`` mode (jupyter-cache) reuses a notebook's outputs when its code cells and kernel
are unchanged. That alone would go stale here: the chapters' code cells are short calls into the
``widgets`` package and read ``data/``, so a change to a model or a table changes the outputs
without changing a cell. This extension keys the whole cache on everything else the outputs can
depend on (see :func:`code_key`):

* every file under ``widgets/``, ``data/``, ``lessons/`` and ``source_figures/`` (the code, the tables, the
  lessons and the source-figure lists the notebooks read),
* ``_config.yml``, ``requirements.txt`` and ``pyproject.toml``,
* the Python version and every installed distribution with its version,
* the ``DB2BOOK_*`` environment variables (``DB2BOOK_BUILD=1`` picks the static chart renderer).

When the key differs from the one the cache was filled under, the cache is emptied before anything
is read from it, so every notebook is executed again. The key is also a Sphinx config value that
rebuilds the environment, so even an incremental build re-reads every page after such a change.
A cell-only edit changes jupyter-cache's own hash of that notebook: only that notebook runs again.
A clean checkout (CI) has no cache, so every notebook is executed from scratch.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import sys
from importlib import metadata
from pathlib import Path

from sphinx.util import logging

KEY_FILE = "db2book-code-key.txt"
CODE_DIRS = ("widgets", "data", "lessons", "source_figures")
CODE_FILES = ("_config.yml", "requirements.txt", "pyproject.toml")
SKIP_PARTS = {"__pycache__", ".ipynb_checkpoints", ".pytest_cache"}


def _files(root: Path):
    for name in CODE_DIRS:
        for path in sorted((root / name).rglob("*")):
            if path.is_file() and not SKIP_PARTS & set(path.relative_to(root).parts) and path.suffix != ".pyc":
                yield path
    for name in CODE_FILES:
        if (root / name).is_file():
            yield root / name


def code_key(root: Path) -> str:
    """A hash of everything a notebook's outputs can depend on besides its own cells (see the module)."""
    digest = hashlib.sha256()
    for path in _files(root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(sys.version.encode() + b"\0")
    # a set: an editable install is found twice when the repository root is on sys.path
    dists = sorted({f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions() if d.metadata["Name"]})
    digest.update("\n".join(dists).encode() + b"\0")
    env = sorted(f"{k}={v}" for k, v in os.environ.items() if k.startswith("DB2BOOK_"))
    digest.update("\n".join(env).encode())
    return digest.hexdigest()[:16]


def cache_folder(app) -> Path:
    """The jupyter-cache folder myst-nb uses: ``execute.cache`` in ``_config.yml``, else ``_build/.jupyter_cache``."""
    configured = app.config.nb_execution_cache_path
    return Path(configured).resolve() if configured else Path(app.outdir).parent.joinpath(".jupyter_cache").resolve()


def prepare(folder: Path, key: str) -> bool:
    """Empty ``folder`` unless it was filled under ``key``; returns True when it was kept."""
    stamp = folder.parent / f"{folder.name}.{KEY_FILE}"
    if folder.exists() and stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == key:
        return True
    shutil.rmtree(folder, ignore_errors=True)
    folder.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text(key + "\n", encoding="utf-8")
    return False


def _config_inited(app, config):
    key = code_key(Path(app.srcdir))
    config.db2book_code_key = key
    if config.nb_execution_mode == "cache":
        kept = prepare(cache_folder(app), key)
        state = "kept (code and data unchanged)" if kept else "emptied: every notebook runs again"
        logging.getLogger(__name__).info(f"db2book: execution cache {key}: {state}")


def setup(app):
    app.add_config_value("db2book_code_key", "", "env")
    app.connect("config-inited", _config_inited)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
