"""The numbers a chapter's prose types by hand, and whether each can drift from the model or the data.

A maintainer's tool, and the engine of ``tests/test_prose_numbers.py``. A number in a chapter's
prose is safe when it cannot drift from what it claims to be:

* it is **glued** from code (``{glue:text}`name```), so the model or the data computes it at build time;
* it is a **printed value** of the study: the same digits (at the same precision) appear in a printed
  cell of the study's ``data/`` folder (a number of three or more significant digits may come from
  another study's folder: the chapters compare studies, and such a number does not match by chance);
* it is a **reference**, not a quantity: a table, figure, section or page number, a DB2 or z/OS
  version, a year.

Everything else is listed, and must be argued in :data:`ALLOW_FILE` (one row per chapter and number,
with the reason it may stay typed). Run ``python -m tools.prose_numbers`` for the numbers not yet
argued, ``--all`` for every typed number with its reason, ``--stale`` for allow-list rows that no
longer match a number in the chapter.

Code cells, glue roles, inline code, directive options and link targets are not prose and are not
read. Worked arithmetic in LaTeX (``$54.2$``) is prose: a reader reads it.
"""
from __future__ import annotations

import argparse
import csv
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ALLOW_FILE = ROOT / "tests" / "prose_numbers_allowed.csv"
ALLOW_COLUMNS = ("page", "number", "reason")

#: A number as prose and tables print it: optional sign, digits with thousands commas (plain or
#: LaTeX ``{,}``), an optional decimal part. Not part of a word (``z13``, ``S30801B1``, ``BP32K``).
_NUMBER = re.compile(r"(?<![\w.])[-−+]?\d(?:\d|,\d{3}|\{,\}\d{3})*(?:\.\d+)?(?![\w])")
#: References, not quantities: "Table 4", "Tables 10 to 17", "§3.10", "Figure 18", "p. 12", "DB2 11",
#: "z/OS 2.1", "section 4", "chapter 6", "SMF 42.6" and "IFCID 199" (record types), "FL 510" (a
#: function level).
_REFERENCE = re.compile(
    r"(?:\b(?:Tables?|Figures?|Fig\.|[Ss]ections?|[Cc]hapters?|[Aa]ppendix|pp?\.|[Pp]ages?|[Ss]teps?|"
    r"DB2|Db2|z/OS|[Vv]ersion|v|[Ee]xercise|[Ll]ines?|SMF|IFCID|APAR|FL)|§)\s*§?\d+(?:\.\d+)*[a-z]?"
    r"(?:\s*(?:,|and|to|or|–|-|&)\s*§?\d+(?:\.\d+)*[a-z]?)*")
#: A number inside a printed cell, which may carry a unit glued to it ("38.4K", "977M", "89.52%").
_CELL_NUMBER = re.compile(r"[-−+]?\d[\d,]*(?:\.\d+)?")
#: Number words a source prints ("two CPs and six zIIPs"), as the digits prose may write them.
_WORDS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
_YEAR = re.compile(r"^(?:19[5-9]\d|20[0-3]\d)$")


@dataclass(frozen=True)
class TypedNumber:
    """One number typed in a page's prose: the page (``chapters/large_memory``), the 1-based line
    of the ``.md`` file, the number as a reader sees it without commas or sign, and its line."""

    page: str
    line: int
    number: str
    text: str


def _blank(match: re.Match) -> str:
    """Replace a region by as many newlines as it held, so line numbers survive."""
    return "\n" * match.group(0).count("\n")


def prose(text: str) -> str:
    """A MyST notebook's text with everything that is not prose blanked out (line count kept)."""
    text = re.sub(r"\A---\n.*?\n---\n", _blank, text, flags=re.S)  # front matter
    text = re.sub(r"^```\{code-cell\}.*?^```[ \t]*$", _blank, text, flags=re.S | re.M)
    text = re.sub(r"^(`{3,}|:{3,}).*$", "", text, flags=re.M)  # directive fences
    text = re.sub(r"^:[\w-]+:.*$", "", text, flags=re.M)  # directive options (:label:, :class:)
    text = re.sub(r"\{[\w:-]+\}`[^`\n]*`", "", text)  # roles: glue, cite, term, ref, numref
    text = re.sub(r"`[^`\n]*`", "", text)  # inline code
    text = re.sub(r"\]\([^)\n]*\)", "]", text)  # link targets
    text = re.sub(r"<[^>\n]*>", "", text)  # html tags
    return _REFERENCE.sub(_blank, text)


def normalise(token: str) -> str:
    """``"38,400"`` and ``"38{,}400"`` → ``"38400"``; ``"−97"`` → ``"97"`` (a printed delta keeps its
    sign in the data, the prose says "fell by")."""
    return token.replace("{,}", "").replace(",", "").lstrip("-−+")


def significant_digits(number: str) -> int:
    """Significant digits of a normalised number as typed (``"0.058"`` → 2, ``"1200"`` → 2, ``"90.30"`` → 4)."""
    digits = number.replace(".", "").lstrip("0")
    if "." not in number:
        digits = digits.rstrip("0")
    return len(digits)


def typed_numbers(page: str) -> list[TypedNumber]:
    """Every number typed in the prose of ``<page>.md`` (a path under the repository root, no suffix)."""
    lines = prose((ROOT / f"{page}.md").read_text(encoding="utf-8")).split("\n")
    out = []
    for i, line in enumerate(lines, start=1):
        for match in _NUMBER.finditer(line):
            number = normalise(match.group(0))
            if _YEAR.match(number):
                continue
            out.append(TypedNumber(page, i, number, line.strip()))
    return out


@lru_cache(maxsize=None)
def printed_numbers(study: str) -> frozenset[str]:
    """Every number a printed cell of ``data/<study>/`` holds, as printed (normalised, number words as
    digits, a printed trailing zero also dropped: 410.40 is 410.4); a cell printed in another unit or scale
    ("38.4K", "1 hour") also gives its ``value`` (38400, 60)."""
    found: set[str] = set()
    for path in sorted((ROOT / "data" / study).glob("*.csv")):
        if path.name == "sources.csv":
            continue
        with path.open(newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                printed = row.get("printed") or ""
                tokens = [normalise(t) for t in _CELL_NUMBER.findall(printed)]
                tokens += [_WORDS[w.lower()] for w in re.findall(r"[A-Za-z]+", printed) if w.lower() in _WORDS]
                # "518.00" says 518, and "410.40" says 410.4: the same number, with no digit invented
                tokens += [t.rstrip("0").rstrip(".") for t in tokens if re.fullmatch(r"\d+\.\d*0", t)]
                found.update(tokens)
                value = (row.get("value") or "").strip()
                if value and all(float(t) != float(value) for t in tokens):
                    # printed in another unit or scale ("38.4K" is 38400, "1 hour" is 60 min): the value too
                    found.add(normalise(f"{float(value):.10g}"))
    return frozenset(found)


def all_studies() -> list[str]:
    """Every folder of ``data/`` (the studies, and other documents such as the SHARE deck)."""
    return sorted(p.name for p in (ROOT / "data").iterdir() if p.is_dir())


def is_printed(number: str, study: str) -> bool:
    """The number is a printed cell of the study, or (three or more significant digits) of any study."""
    if number in printed_numbers(study):
        return True
    return significant_digits(number) >= 3 and any(number in printed_numbers(s) for s in all_studies())


def pages() -> dict[str, str]:
    """Each study's page (``chapters/large_memory``) and the data folder its numbers are checked against."""
    from widgets.studies import NOTES, STUDIES

    return {study.page_path: study.slug for study in STUDIES + NOTES}


def unglued(page: str, study: str) -> list[TypedNumber]:
    """The numbers typed in a page's prose that are neither glued nor printed cells nor references."""
    return [n for n in typed_numbers(page) if n.number != "0" and not is_printed(n.number, study)]


def allowed() -> dict[tuple[str, str], str]:
    """The allow-list: (page, number) → the reason that number may stay typed."""
    with ALLOW_FILE.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        if tuple(reader.fieldnames or ()) != ALLOW_COLUMNS:
            raise ValueError(f"{ALLOW_FILE}: the columns must be {', '.join(ALLOW_COLUMNS)}")
        out = {}
        for i, row in enumerate(reader, start=2):
            key = (row["page"], row["number"])
            if not row["reason"].strip():
                raise ValueError(f"{ALLOW_FILE}, line {i}: {key} has no reason")
            if key in out:
                raise ValueError(f"{ALLOW_FILE}, line {i}: {key} is listed twice")
            out[key] = row["reason"]
    return out


def report() -> tuple[list[TypedNumber], list[tuple[str, str]]]:
    """(typed numbers not on the allow-list, allow-list rows that match no typed number)."""
    allow = allowed()
    missing, seen = [], set()
    for page, study in pages().items():
        for n in unglued(page, study):
            seen.add((page, n.number))
            if (page, n.number) not in allow:
                missing.append(n)
    return missing, sorted(set(allow) - seen)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--all", action="store_true", help="every typed number, with its reason")
    parser.add_argument("--stale", action="store_true", help="allow-list rows that match nothing")
    args = parser.parse_args(argv)
    missing, stale = report()
    if args.all:
        allow = allowed()
        for page, study in pages().items():
            for n in unglued(page, study):
                print(f"{page}.md:{n.line}: {n.number:>10}  {allow.get((page, n.number), 'NOT ARGUED')}")
        return 0
    if args.stale:
        for page, number in stale:
            print(f"{page}: {number}")
        return 1 if stale else 0
    for n in missing:
        print(f"{n.page}.md:{n.line}: {n.number}  | {n.text[:110]}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
