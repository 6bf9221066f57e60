"""Build ``data/sections.csv``: where each numbered section of a source document starts in its text.

A maintainer's tool. The book's data cite cells by the line of the source text they were read from
(``line`` in ``data/<study>/*.csv``); readers need the document's own coordinates instead. This
index maps an extraction line to the section that holds it (``§3.10.4``, ``chapter 6``,
``Appendix B``), so that :func:`widgets.citations.cite` can name the section without the text.

Run ``python -m tools.sections`` (the source texts must be where ``tools/seeds.py`` finds them) to
rewrite the index; ``tests/test_standalone.py`` checks that the stored index is what this builds.
"""
from __future__ import annotations

import csv
import io
import re
import sys

from tools import seeds

#: The documents with numbered sections: the Redbook SG24-8536 and the large-memory brief.
REDBOOK = "004_f768f5134630e6bd.txt"
BRIEF = "000_146de95091e26057.txt"
COLUMNS = ("seed", "first_line", "section", "title", "page")
_NUMBERED = re.compile(r"^ {0,4}(\d+(?:\.\d+)+)\s+(\S.{0,118})$")
_TOC_PAGE = re.compile(r"^(.*?)\t\s*(\d+)\s*$")
#: The Redbook's chapters after the first, and its appendices, in order: a title line with one leading space.
_REDBOOK_PARTS = [str(n) for n in range(2, 14)] + ["A", "B", "C"]
_BRIEF_BODY = 160  # the brief's table of contents ends before this line; the body starts after it


def _key(number: str) -> tuple[int, ...]:
    return tuple(int(p) for p in number.split("."))


def _plausible_next(prev: tuple[int, ...] | None, cur: tuple[int, ...]) -> bool:
    """A heading number follows the previous one: a later sibling, a first child, or a later ancestor."""
    if prev is None:
        return True
    if cur <= prev:
        return False
    for depth in range(min(len(prev), len(cur))):
        if cur[depth] != prev[depth]:
            return cur[depth] - prev[depth] <= 3  # a missed heading or two, not a stray number
    return len(cur) == len(prev) + 1 and cur[-1] <= 1


def numbered(lines: list[str], start: int = 1) -> list[tuple[int, str, str]]:
    """(line, number, title) of every numbered heading from line ``start`` on, in order."""
    out, prev = [], None
    for i, text in enumerate(lines[start - 1:], start=start):
        m = _NUMBERED.match(text.rstrip())
        if not m or "\t" in m.group(2):
            continue
        key = _key(m.group(1))
        if not _plausible_next(prev, key):
            continue
        out.append((i, m.group(1), m.group(2).strip()))
        prev = key
    return out


def redbook(lines: list[str]) -> list[dict[str, str]]:
    """The Redbook's chapters, appendices and numbered sections."""
    rows = [{"first_line": 1, "section": "chapter 1", "title": "Introduction"}]  # chapter 1 opens the text
    parts = [i for i, text in enumerate(lines, start=1) if re.match(r"^ [A-Z]\S", text)]
    if len(parts) != len(_REDBOOK_PARTS):
        raise ValueError(f"{REDBOOK}: expected {len(_REDBOOK_PARTS)} chapter and appendix title lines, "
                         f"found {len(parts)}")
    for line, name in zip(parts, _REDBOOK_PARTS):
        label = f"chapter {name}" if name.isdigit() else f"Appendix {name}"
        rows.append({"first_line": line, "section": label, "title": lines[line - 1].strip()})
    rows += [{"first_line": i, "section": f"§{n}", "title": t} for i, n, t in numbered(lines)]
    return sorted(rows, key=lambda r: r["first_line"])


def brief(lines: list[str]) -> list[dict[str, str]]:
    """The brief's numbered sections, with the start page its table of contents prints (when it does)."""
    pages = {}
    for text in lines[:_BRIEF_BODY]:
        m = _TOC_PAGE.match(text)
        if m and re.match(r"\d+\.\d+ ", m.group(1)):
            pages[m.group(1).split()[0]] = m.group(2)
    return [{"first_line": i, "section": f"§{n}", "title": t, "page": f"p. {pages[n]}" if n in pages else ""}
            for i, n, t in numbered(lines, start=_BRIEF_BODY)]


def build() -> str:
    """The CSV text of ``data/sections.csv``, built from the source texts."""
    rows = [dict(r, seed=REDBOOK) for r in redbook(seeds.lines(REDBOOK))]
    rows += [dict(r, seed=BRIEF) for r in brief(seeds.lines(BRIEF))]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({c: row.get(c, "") for c in COLUMNS})
    return out.getvalue()


if __name__ == "__main__":
    from widgets.data import data_dir

    target = data_dir() / "sections.csv"
    target.write_text(build(), encoding="utf-8")
    print(f"wrote {target}", file=sys.stderr)
