"""Where the source texts are: the one setting the source-text tests and the maintainer tools read.

The studies' source texts (plain-text extractions of the PDFs and slides, named like
``004_f768f5134630e6bd.txt``) are not part of the repository. The tests that compare printed cells
with them, and :mod:`tools.sections`, find them here:

* ``DB2BOOK_SEEDS``, when set, names the folder. A text missing from it is an error, not a skip:
  CI sets it (see ``.ci/run``) so that these tests can never be skipped silently.
* Otherwise ``../shared/seeds`` beside the repository is used when it exists; when it does not,
  the tests that need a text are skipped with a one-line reason.
"""
from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = "DB2BOOK_SEEDS"
DEFAULT = ROOT.parent / "shared" / "seeds"
#: Every source text a study's data cites, by file name.
NAMES = ("000_146de95091e26057.txt", "001_73aad4a1b5a8db65.txt", "002_0dd9d95ee22b6422.txt",
         "003_e5c21d25dc7d78e3.txt", "004_f768f5134630e6bd.txt")


def folder() -> Path:
    """The folder of source texts: ``$DB2BOOK_SEEDS``, or ``../shared/seeds`` beside the repository."""
    value = os.environ.get(ENV, "").strip()
    return Path(value).expanduser() if value else DEFAULT


def required() -> bool:
    """True when ``DB2BOOK_SEEDS`` is set: then a missing text fails instead of skipping."""
    return bool(os.environ.get(ENV, "").strip())


def path(name: str) -> Path:
    """The path of one source text (which may not exist)."""
    return folder() / name


def missing_reason(name: str) -> str | None:
    """None when the text ``name`` is available, else a one-line reason to skip.

    Raises FileNotFoundError when ``DB2BOOK_SEEDS`` is set but the text is not in that folder.
    """
    where = path(name)
    if where.is_file():
        return None
    if required():
        raise FileNotFoundError(f"{ENV}={folder()} but {name} is not there; point {ENV} at the folder of "
                                f"source texts ({', '.join(NAMES)})")
    return f"source text {name} not found: set {ENV} to the folder of source texts (default ../shared/seeds)"


def lines(name: str) -> list[str]:
    """The text's lines (line N of the text is ``lines(name)[N - 1]``)."""
    return path(name).read_text(encoding="utf-8").splitlines()


def main() -> int:
    """``python3 -m tools.seeds``: exit 1, naming what is missing, unless every source text is there."""
    missing = [name for name in NAMES if not path(name).is_file()]
    if missing:
        print(f"source texts missing from {folder()} ({ENV}): {', '.join(missing)}", flush=True)
        return 1
    print(f"source texts: {folder()} ({len(NAMES)} found)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
