"""The lessons ledger: every sentence a chapter teaches, traced to its source.

The fidelity ledger (:mod:`widgets.ledger`) makes every *number* answer to its source. This module does
the same for what the book *teaches*. A **lesson** is a sentence that states a cause, a limit, a
comparison, a rule of thumb or a recommendation. Each is a row of ``lessons/<study>.csv`` (a folder of its
own, apart from ``data/``: a lesson's quote is not a published table, and must not excuse a typed number):

=============  ================================================================================================
column         meaning
=============  ================================================================================================
``id``         short and unique in the file (``sap-01``)
``section``    the heading the sentence sits under, as the page prints it
``sentence``   the sentence, or the clause of it that teaches, as the chapter prints it (markup aside; a glued
               number or a cross-reference written ``…``)
``kind``       ``stated`` (the source says it), ``inferred`` (the book's own reading) or ``contested`` (the
               source says it, and its own numbers or another source disagree)
``quote``      stated, contested: the source's own words, verbatim from the source text (``…`` marks a cut)
``source``     stated, contested: the reader's citation (document, section, page)
``seed``       stated, contested: the source text the quote is in (``003_e5c21d25dc7d78e3.txt``)
``lines``      stated, contested: its lines in that text (``383`` or ``380-386``), for maintainers
``rests_on``   inferred: the one-line argument and the data or ledger rows it rests on
``other_side`` contested: what disagrees, with its citation
=============  ================================================================================================

An inferred lesson must *read* as one on the page: its sentence, or the paragraph around it, says "we
read", "suggests", "our model" or the like (:data:`HEDGES`: the book's first person counts, as does any
word of doubt), never "the brief shows".

Sentences of a chapter's prose that carry a causal word (:data:`CAUSAL`) and are not lessons (a note on
transcription, an instruction to the reader) are listed with a reason in ``lessons/<study>.not.csv``
(``sentence,reason``). :func:`unlisted` gives the ones that are in neither file; the tests require none.
"""
from __future__ import annotations

import csv
import html
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from . import citations as _citations
from . import data as _data
from .ledger import HTML  # noqa: F401  (re-exported: the chapters show the table with lessons.HTML)
from .studies import NOTES, STUDIES, study as find_study

KINDS = ("stated", "inferred", "contested")
COLUMNS = ("id", "section", "sentence", "kind", "quote", "source", "seed", "lines", "rests_on", "other_side")
NOT_LESSON_COLUMNS = ("sentence", "reason")
ROOT = Path(__file__).resolve().parent.parent

#: Words that make a sentence a candidate lesson: a cause, a limit, a comparison's verdict, a cure.
CAUSAL = re.compile(
    r"\b(because|limited by|limits?|limiting|the reason|reasons?|cures?|cured|won|wins|due to|caused?|causes|"
    r"explains?|explained|therefore|hence|so|thus|leads? to|led to|drives?|driven by|comes? from|"
    r"depends? on|rule|should|must|never|always|better|worse|beats?|instead of)\b", re.IGNORECASE)

#: Words by which the page marks a sentence as the book's own reading rather than the source's finding.
HEDGES = re.compile(
    r"\b(we read|we take|we infer|we think|we suggest|we argue|we estimate|we fit|we compute|our reading|"
    r"our model|our fit|our guess|our estimate|the model|this model|the book's|suggests?|suggesting|likely|"
    r"probably|presumably|perhaps|may|might|could|seems?|appears?|plausibly|one reading|a reading|"
    r"consistent with|not (?:a|the) (?:source's|brief's|study's|deck's|Redbook's) (?:finding|claim)|"
    r"not the (?:source's|brief's|study's|deck's|Redbook's)|hypothes[ie]s|if|we|our|us)\b", re.IGNORECASE)

_LINES = re.compile(r"^(\d+)(?:-(\d+))?$")


@dataclass(frozen=True)
class Lesson:
    """One lesson of a chapter and where it comes from."""

    study: str
    row: int  # the row's line in the CSV file (the header is line 1)
    id: str
    section: str
    sentence: str
    kind: str
    quote: str
    source: str
    seed: str
    lines: str
    rests_on: str
    other_side: str

    @property
    def line_range(self) -> tuple[int, int]:
        """The first and last line of the quote in the source text (1-based, inclusive)."""
        m = _LINES.match(self.lines)
        if not m:
            raise ValueError(f"{self.study} lessons.csv row {self.row}: lines={self.lines!r}; write 'A' or 'A-B'")
        first = int(m.group(1))
        return first, int(m.group(2) or first)


def lessons_dir() -> Path:
    """The ``lessons/`` folder (override with ``DB2BOOK_LESSONS``, as the tests do)."""
    override = os.environ.get("DB2BOOK_LESSONS")
    return Path(override) if override else ROOT / "lessons"


def lessons_path(study: str) -> Path:
    """``lessons/<study>.csv``."""
    return lessons_dir() / f"{study}.csv"


def not_lessons_path(study: str) -> Path:
    """``lessons/<study>.not.csv``: causal sentences that are not lessons, each with its reason."""
    return lessons_dir() / f"{study}.not.csv"


def page_path(study: str) -> Path:
    """The Markdown source of the study's page (``chapters/<slug>.md``, or the note's page)."""
    return ROOT / f"{find_study(study).page_path}.md"


def _read(path: Path, columns: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    """The rows of a CSV file with exactly ``columns``, each with its line number; errors name file and row."""
    if not path.is_file():
        raise FileNotFoundError(f"{path}: missing; it holds the columns {', '.join(columns)}")
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        try:
            header = next(reader)
        except StopIteration:
            raise ValueError(f"{path}: empty; the first line names the columns {', '.join(columns)}") from None
        if tuple(header) != columns:
            raise ValueError(f"{path}: the header is {','.join(header)}; it must be {','.join(columns)}")
        out = []
        for number, values in enumerate(reader, start=2):
            if not any(v.strip() for v in values):
                continue
            if len(values) != len(columns):
                raise ValueError(f"{path} row {number}: {len(values)} fields, expected {len(columns)}")
            out.append((number, {k: v.strip() for k, v in zip(columns, values)}))
    return out


def _check(study: str, number: int, r: dict[str, str]) -> None:
    """Raise ValueError naming the file and row when a lesson row lacks what its kind needs."""
    where = f"lessons/{study}.csv row {number}"
    if r["kind"] not in KINDS:
        raise ValueError(f"{where}: kind={r['kind']!r}; choose one of {', '.join(KINDS)}")
    for name in ("id", "section", "sentence"):
        if not r[name]:
            raise ValueError(f"{where}: {name} is empty")
    needs = {"stated": ("quote", "source", "seed", "lines"),
             "contested": ("quote", "source", "seed", "lines", "other_side"),
             "inferred": ("rests_on",)}[r["kind"]]
    for name in needs:
        if not r[name]:
            raise ValueError(f"{where}: a {r['kind']} lesson needs {name}")
    if r["lines"] and not _LINES.match(r["lines"]):
        raise ValueError(f"{where}: lines={r['lines']!r}; write 'A' or 'A-B' (line numbers of the source text)")
    if bool(r["seed"]) != bool(r["lines"]):
        raise ValueError(f"{where}: seed and lines go together (the source text and the quote's lines in it)")


@lru_cache(maxsize=None)
def _load(study: str) -> tuple[Lesson, ...]:
    rows = _read(lessons_path(study), COLUMNS)
    seen: dict[str, int] = {}
    out = []
    for number, r in rows:
        _check(study, number, r)
        if r["id"] in seen:
            raise ValueError(f"lessons/{study}.csv row {number}: id {r['id']!r} repeats row {seen[r['id']]}")
        seen[r["id"]] = number
        out.append(Lesson(study=study, row=number, **r))
    return tuple(out)


def load(study: str) -> list[Lesson]:
    """The lessons of one study, checked (ValueError naming the file and row for a bad one)."""
    return list(_load(study))


def not_lessons(study: str) -> list[dict[str, str]]:
    """The study's causal sentences that are not lessons, each with its reason (``sentence``, ``reason``)."""
    out = []
    for number, r in _read(not_lessons_path(study), NOT_LESSON_COLUMNS):
        if not r["sentence"] or not r["reason"]:
            raise ValueError(f"lessons/{study}.not.csv row {number}: sentence and reason must both be given")
        out.append(r)
    return out


def slugs() -> tuple[str, ...]:
    """Every page with lessons: the studies, then the notes."""
    return tuple(s.slug for s in STUDIES + NOTES)


# --- reading a page's prose --------------------------------------------------------------------------------

_ROLE = re.compile(r"\{(\w[\w:-]*)\}`([^`]*)`")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'", "\u2013": "-",
                         "\u2014": "-", "\u00a0": " ", "\u2011": "-"})


def _role(m: re.Match) -> str:
    name, body = m.group(1), m.group(2)
    if name.startswith("cite"):
        return ""
    if name.startswith(("glue", "doc", "ref", "numref", "eq")):
        return "…"
    return body  # {term}`x`, {math}`x`, {abbr}`x`: the text itself


def plain(text: str) -> str:
    """Text as a reader sees it, for comparing: roles resolved (a citation dropped; a glued number or a
    cross-reference as ``…``), links to their text, emphasis and code marks dropped, quotes and dashes
    made plain, whitespace collapsed."""
    text = _ROLE.sub(_role, text)
    text = _LINK.sub(r"\1", text)
    parts = text.split("`")  # odd parts are code spans: their asterisks are text, not emphasis
    for i in range(0, len(parts), 2):
        parts[i] = re.sub(r"(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])", "", parts[i].replace("**", ""))
    text = "".join(parts).translate(_QUOTES)
    text = text.replace("...", "…")
    return re.sub(r"\s+", " ", text).strip()


@dataclass(frozen=True)
class Sentence:
    line: int  # the page source's line where the sentence starts
    section: str  # the nearest heading above it
    context: str  # "exercise" (a statement), "solution" or ""
    text: str  # plain (see :func:`plain`)
    paragraph: str  # the plain paragraph it belongs to


def _prose_paragraphs(markdown: str) -> list[tuple[int, str, str, str]]:
    """(first line, heading, context, paragraph text) for every paragraph of prose: front matter, code cells, literal
    code blocks, directive options, tables, display equations and raw HTML left out; the bodies of prose
    directives (exercises, solutions, admonitions) kept. A list item is a paragraph of its own. The context
    is ``"exercise"`` in an exercise's statement, ``"solution"`` in a solution, else ``""``."""
    lines = markdown.splitlines()
    out: list[tuple[int, str, str, str]] = []
    heading = ""
    skip_until: str | None = None  # the closing fence of a code cell or literal block being skipped
    kept: list[tuple[str, str]] = []  # the closing fences and names of the open prose directives
    solution_block = False  # between solution-start and solution-end
    buf: list[str] = []
    start = 0
    in_math = False

    def flush():
        nonlocal buf, solution_block
        if buf:
            names = [name for _, name in kept]
            context = ("solution" if solution_block or "solution" in names
                       else "exercise" if "exercise" in names else "")
            out.append((start, heading, context, " ".join(buf)))
        buf = []

    i = 0
    if lines and lines[0].strip() == "---":  # front matter
        i = next((k for k in range(1, len(lines)) if lines[k].strip() == "---"), 0) + 1
    for number, line in enumerate(lines[i:], start=i + 1):
        stripped = line.strip()
        if skip_until is not None:
            if stripped == skip_until:
                skip_until = None
            continue
        fence = re.match(r"^(`{3,}|~{3,})\s*(?:\{([^}]*)\})?", stripped)
        if fence:
            flush()
            marks, directive = fence.group(1), fence.group(2)
            if directive is None and kept and stripped == kept[-1][0]:
                kept.pop()  # a prose directive closes
            elif directive in PROSE_DIRECTIVES:
                kept.append((marks, directive))
                if directive in ("solution-start", "solution-end"):
                    solution_block = directive == "solution-start"
            else:
                skip_until = marks  # a code cell, a literal block or any other directive
            continue
        if re.match(r"^:[\w-]+:", stripped):
            continue  # a directive option
        if stripped.startswith("$$"):
            flush()
            if not (stripped.endswith("$$") and len(stripped) > 2):
                in_math = not in_math
            continue
        if in_math:
            continue
        if stripped.startswith("#"):
            flush()
            heading = stripped.lstrip("#").strip()
            continue
        if not stripped or stripped.startswith(("|", "<", "+++")) or re.match(r"^\([\w-]+\)=$", stripped):
            flush()  # a blank line, a table, raw HTML, a cell break or a target label
            continue
        item = re.match(r"^(?:[-*+]|\d+\.)\s+(.*)$", stripped)
        if item:
            flush()
            stripped = item.group(1)
        stripped = re.sub(r"^>\s*", "", stripped)
        if not buf:
            start = number
        buf.append(stripped)
    flush()
    return out


#: Directives whose body is prose a reader reads (the rest, code cells above all, are skipped).
PROSE_DIRECTIVES = ("exercise", "solution", "solution-start", "solution-end", "admonition", "note", "tip",
                    "warning", "important", "caution", "attention", "hint", "seealso", "epigraph", "topic")


_SPLIT = re.compile(r"(?<=[.!?:;])[\"')\]]*\s+(?=[\"'(\[]*[A-Z0-9$])")


def sentences(study: str) -> list[Sentence]:
    """Every sentence of a page's prose, plain, with its line, section and paragraph."""
    out = []
    for line, heading, context, para in _prose_paragraphs(page_path(study).read_text(encoding="utf-8")):
        text = plain(para)
        for s in _SPLIT.split(text):
            if s.strip():
                out.append(Sentence(line, heading, context, s.strip(), text))
    return out


def page_text(study: str) -> str:
    """The page's whole prose, plain: what a lesson's sentence must be found in."""
    return " ".join(plain(p) for _, _, _, p in _prose_paragraphs(page_path(study).read_text(encoding="utf-8")))


def _covers(fragment: str, sentence: str) -> bool:
    a, b = plain(fragment), sentence
    return bool(a) and (a in b or b in a)


def candidates(study: str) -> list[Sentence]:
    """The page's sentences that carry a causal word (:data:`CAUSAL`), outside exercise statements (a
    question teaches nothing yet; its solution does): each is a lesson or argued not one."""
    return [s for s in sentences(study) if s.context != "exercise" and CAUSAL.search(s.text)]


def unlisted(study: str) -> list[Sentence]:
    """Candidate sentences that no lesson row and no ``<study>.not.csv`` row covers."""
    fragments = [x.sentence for x in load(study)] + [r["sentence"] for r in not_lessons(study)]
    return [s for s in candidates(study) if not any(_covers(f, s.text) for f in fragments)]


# --- checking quotes against the source texts ----------------------------------------------------------------


def _flat(text: str) -> str:
    """Source text flattened for comparing: quotes and dashes plain, a hyphen broken over a line joined,
    whitespace collapsed."""
    text = text.translate(_QUOTES)
    text = re.sub(r"(\w)-\s*\n\s*(\w)", r"\1\2", text)
    return re.sub(r"\s+", " ", text).strip()


def quote_found(quote: str, source_lines: list[str], first: int, last: int, slack: int = 3) -> bool:
    """True when every piece of ``quote`` (cut at ``…``) appears, in order, in lines ``first``..``last``
    (1-based, ± ``slack`` lines) of a source text. Case and whitespace as in :func:`_flat`."""
    lo, hi = max(0, first - 1 - slack), min(len(source_lines), last + slack)
    hay = _flat("\n".join(source_lines[lo:hi]))
    hay_joined = _flat(re.sub(r"-\n", "", "\n".join(source_lines[lo:hi])))
    pieces = [p.strip() for p in _flat(quote.replace("...", "…")).split("…") if p.strip()]
    if not pieces:
        return False
    for text in (hay, hay_joined):
        pos, ok = 0, True
        for p in pieces:
            k = text.find(p, pos)
            if k < 0:
                k = text.lower().find(p.lower(), pos)
            if k < 0:
                ok = False
                break
            pos = k + len(p)
        if ok:
            return True
    return False


# --- what the reader sees ------------------------------------------------------------------------------------

STYLE = ("<style>.lessons-table td,.lessons-table th{vertical-align:top;text-align:left;overflow-wrap:anywhere}"
         "table.lessons-rows{width:100%;table-layout:fixed}"
         "table.lessons-rows th:nth-child(1){width:16%}table.lessons-rows th:nth-child(2){width:34%}"
         "table.lessons-rows th:nth-child(3){width:11%}table.lessons-rows th:nth-child(4){width:39%}"
         ".lessons-table .lesson-kind{font-weight:600}"
         ".lessons-table blockquote{margin:0;padding:0 0 0 .6em;border-left:3px solid #999;font-style:normal}"
         # on a phone each lesson is a card: its cells stacked, each named by its column
         "@media (max-width:640px){table.lessons-rows,table.lessons-rows tbody,table.lessons-rows tr,"
         "table.lessons-rows td{display:block;width:auto}table.lessons-rows thead{display:none}"
         "table.lessons-rows tr{border-top:1px solid #999;padding:.4em 0}"
         "table.lessons-rows td{border:none;padding:.1em 0}"
         "table.lessons-rows td::before{content:attr(data-label) ': ';font-weight:600}}"
         "</style>")

KIND_LABEL = {"stated": "stated by the source", "inferred": "our reading", "contested": "contested"}


def counts(study: str) -> dict[str, int]:
    """Lessons by kind, and in all (``{"stated": 12, "inferred": 5, "contested": 1, "lessons": 18}``)."""
    mine = load(study)
    out = {k: sum(x.kind == k for x in mine) for k in KINDS}
    out["lessons"] = len(mine)
    return out


#: A maintainer's reference to lines of a source text, as the rows write it: ``line 1311``, ``lines 165-167,
#: 331``, ``l.391``, ``003 l.201``, ``004 lines 4494-4495`` (an optional text number names the text).
LINE_REF = re.compile(r"(?:\b(0\d\d)(?:_[0-9a-f]+\.txt)?\s+)?(?:\bl\.\s*|\blines?\s+|\u2248)(\d+)"
                      r"((?:\s*[-\u2013]\s*\d+)?(?:\s*(?:,|/|and)\s*(?:l\.\s*)?\d+\b(?:\s*[-\u2013]\s*\d+)?)*)")


#: A source text named by its number alone (``000``, ``(001)``, ``004 §3.4``): shown as the document's name.
SEED_NUMBER = re.compile(r"\b(00[0-4])(?:_[0-9a-f]+\.txt)?\b(?!\s*(?:[-\u2013,]\s*\d|%|\.\d))")


def _short_name(number: str) -> str:
    """The document's short name for a source text's number (``"003"`` -> ``SAP Banking Services 7.0 ...``)."""
    named = [n for n in _data.documents().index if str(n).startswith(number + "_")]
    return _citations.document_name(named[0]).split(",")[0] if named else number


def _seed_of(prefix: str | None, x: Lesson) -> str:
    """The source text a line reference points into: the one it names, else the row's, else the page's."""
    if prefix:
        named = [n for n in _data.documents().index if str(n).startswith(prefix + "_")]
        if named:
            return named[0]
    if x.seed:
        return x.seed
    return str(_data.sources(x.study)["seed"].iloc[0]) if (_data.data_dir() / x.study).is_dir() else ""


def _place(seed: str, line: int, study: str) -> str:
    """A line of a source text in the document's own coordinates (a table, a section), or ``""``."""
    try:
        if seed == str(_data.sources(study)["seed"].iloc[0]):
            where = _citations.place(study, line)
            return "" if where == "elsewhere in the source" else where
    except (FileNotFoundError, ValueError, KeyError):
        pass
    return _citations.section_at(seed, line)


def for_readers(text: str, x: Lesson) -> str:
    """``text`` with every reference to lines of a source text (kept in the CSV for maintainers) turned into
    the document's own coordinates where they are known (a table, a section) and dropped where not: readers
    never see a text file's line numbers."""
    def swap(m: re.Match) -> str:
        seed = _seed_of(m.group(1), x)
        lines = [int(n) for n in re.findall(r"\d+", m.group(2) + m.group(3))]
        places = list(dict.fromkeys(p for p in (_place(seed, n, x.study) for n in lines) if p)) if seed else []
        if not places:
            return ""
        own = x.seed or (str(_data.sources(x.study)["seed"].iloc[0]) if (_data.data_dir() / x.study).is_dir() else "")
        doc = "" if seed == own else f"{_citations.document_name(seed).split(',')[0]}, "
        return doc + " and ".join(places)
    out = LINE_REF.sub(swap, text)
    out = SEED_NUMBER.sub(lambda m: _short_name(m.group(1)), out)
    # a section named twice in a row by converted references ("§2.6.2 §2.6.2", "§4.3 (§4.3)") once
    out = re.sub(r"(§\d+(?:\.\d+)*)(?:\s*(?:,|and)?\s*(\()?\1(?![\d.]*\d)(?(2)\)))+", r"\1", out)
    out = re.sub(r"\(\s*[,;:]?\s*\)", "", out)  # a parenthesis left empty
    out = re.sub(r"\(\s*[,;]\s*", "(", out)
    out = re.sub(r"\s*[,;]\s*\)", ")", out)
    out = re.sub(r"\s+([,;:.)])", r"\1", out)
    return re.sub(r"\s{2,}", " ", out).strip()


#: A name from code in a row's argument: ``t_hit``, ``calibration.read_calibration``, ``model.time_to_clear``.
CODE_NAME = re.compile(r"(?<![\w./-])(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+"
                       r"|[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*)\b(?![./]\w)")
#: "glue name": the chapter glues that number into its prose; the name is the code's, the reader has the number.
GLUE_NAME = re.compile(r"\s*\(\s*(?:factor )?glue [\w,/* ]+(?:,[^)]*)?\)|\bglue [a-z][\w/*]*(?:,\s*[a-z][\w/*]*)*",
                       re.IGNORECASE)


def _esc_code(text: str) -> str:
    """``text`` escaped for HTML, its names from code set as code (``<code>t_hit</code>``), glue names dropped."""
    text = GLUE_NAME.sub(lambda m: "" if m.group(0).lstrip().startswith("(") else "the number the chapter prints", text)
    out, last = [], 0
    for m in CODE_NAME.finditer(text):
        out.append(html.escape(text[last:m.start()]) + f"<code>{html.escape(m.group(0))}</code>")
        last = m.end()
    return "".join(out) + html.escape(text[last:])


def _where(x: Lesson) -> str:
    esc = _esc_code
    if x.kind == "inferred":
        return f"<em>We read it so:</em> {esc(for_readers(x.rests_on, x))}"
    text = f"<blockquote>\u201c{esc(x.quote)}\u201d</blockquote>{esc(for_readers(x.source, x))}"
    if x.kind == "contested":
        text += f"<br><em>Against it:</em> {esc(for_readers(x.other_side, x))}"
    if x.rests_on:
        text += f"<br><em>Also:</em> {esc(for_readers(x.rests_on, x))}"
    return text


def chapter_html(study: str) -> str:
    """A chapter's lessons, collapsed: one line of counts, then a table (section, lesson, kind, where from)."""
    mine = load(study)
    c = counts(study)
    summary = (f"Where each lesson comes from: {c['lessons']} lessons, {c['stated']} stated by the source, "
               f"{c['inferred']} our own reading, {c['contested']} contested")
    rows = "".join(
        f'<tr><td data-label="section">{html.escape(x.section)}</td>'
        f'<td data-label="lesson">{html.escape(x.sentence)}</td>'
        f'<td class="lesson-kind" data-label="kind">{KIND_LABEL[x.kind]}</td>'
        f'<td data-label="where it comes from">{_where(x)}</td></tr>' for x in mine)
    return (STYLE + f'<details class="lessons-details"><summary>{html.escape(summary)}</summary>'
            '<div class="ledger-scroll" tabindex="0" style="overflow-x:auto">'
            '<table class="lessons-table lessons-rows">'
            "<thead><tr><th>section</th><th>lesson</th><th>kind</th><th>where it comes from</th></tr></thead>"
            f"<tbody>{rows}</tbody></table></div></details>")


def book_html() -> str:
    """The book's lessons per chapter, by kind, as an HTML table."""
    head = "<thead><tr><th>chapter</th><th>lessons</th><th>stated</th><th>inferred</th><th>contested</th></tr></thead>"
    body, total = [], {k: 0 for k in KINDS + ("lessons",)}
    for s in STUDIES + NOTES:
        c = counts(s.slug)
        for k in total:
            total[k] += c[k]
        body.append(f"<tr><td>{html.escape(s.title)}</td>" + "".join(
            f'<td class="num">{c[k]}</td>' for k in ("lessons",) + KINDS) + "</tr>")
    body.append("<tr><td><strong>the book</strong></td>" + "".join(
        f'<td class="num"><strong>{total[k]}</strong></td>' for k in ("lessons",) + KINDS) + "</tr>")
    return (STYLE + '<div class="ledger-scroll" tabindex="0" style="overflow-x:auto"><table class="lessons-table">'
            + head + "<tbody>" + "".join(body) + "</tbody></table></div>")
