"""The lessons ledger (widgets/lessons.py): every lesson a page teaches is traced to its source.

For every chapter and the zEDC note: each row of ``lessons/<study>.csv`` is well formed, its sentence
is printed on the page under the section it names, a stated or contested row's quote is in the source
text at the lines it cites (skipped with a reason where the texts are absent, as the other source-text
tests), an inferred row names what it rests on and reads as a reading on the page, and every sentence of
the page's prose that carries a causal word is either a lesson or argued not one in
``lessons/<study>.not.csv``.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tools import seeds
from widgets import lessons

SLUGS = lessons.slugs()
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("study", SLUGS)
def test_rows_load_and_the_page_has_lessons(study):
    rows = lessons.load(study)
    assert len(rows) >= 5, f"{study}: only {len(rows)} lessons recorded in lessons/{study}.csv"
    assert {x.kind for x in rows} <= set(lessons.KINDS)


@pytest.mark.parametrize("study", SLUGS)
def test_every_sentence_is_on_the_page_in_its_section(study):
    text = lessons.page_text(study)
    headings = {s.section for s in lessons.sentences(study)}
    missing = [f"row {x.row} ({x.id}): {x.sentence[:90]!r}" for x in lessons.load(study)
               if lessons.plain(x.sentence) not in text]
    assert not missing, f"{study}: lessons not printed on the page:\n" + "\n".join(missing)
    for x in lessons.load(study):
        holders = {s.section for s in lessons.sentences(study) if lessons._covers(x.sentence, s.text)
                   or lessons.plain(x.sentence) in s.paragraph}
        assert x.section in headings, f"{study} row {x.row}: no section headed {x.section!r} on the page"
        assert x.section in holders, (f"{study} row {x.row} ({x.id}): the sentence is printed under "
                                      f"{sorted(holders)}, not {x.section!r}")


@pytest.mark.parametrize("study", SLUGS)
def test_quotes_are_in_the_source_at_the_cited_lines(study):
    quoted = [x for x in lessons.load(study) if x.kind in ("stated", "contested")]
    assert quoted, f"{study}: no lesson is stated by the source"
    bad = []
    for x in quoted:
        assert x.seed in seeds.NAMES, f"{study} row {x.row}: seed {x.seed!r} is not a source text ({seeds.NAMES})"
        reason = seeds.missing_reason(x.seed)
        if reason:
            pytest.skip(reason)
        first, last = x.line_range
        if not lessons.quote_found(x.quote, seeds.lines(x.seed), first, last):
            bad.append(f"row {x.row} ({x.id}): {x.quote[:80]!r} not in {x.seed} lines {x.lines}")
    assert not bad, f"{study}:\n" + "\n".join(bad)


@pytest.mark.parametrize("study", SLUGS)
def test_an_inferred_lesson_reads_as_a_reading(study):
    """The page says 'we read', 'suggests', 'our model' (or the like) in the sentence or its paragraph."""
    sentences = lessons.sentences(study)
    bad = []
    for x in lessons.load(study):
        if x.kind != "inferred":
            continue
        around = [s.paragraph for s in sentences if lessons._covers(x.sentence, s.text)
                  or lessons.plain(x.sentence) in s.paragraph]
        if not any(lessons.HEDGES.search(p) for p in around):
            bad.append(f"row {x.row} ({x.id}): {x.sentence[:90]!r}")
    assert not bad, (f"{study}: inferred lessons written as findings (say 'we read', 'suggests', "
                     "'our model'...):\n" + "\n".join(bad))


@pytest.mark.parametrize("study", SLUGS)
def test_every_causal_sentence_is_a_lesson_or_argued(study):
    left = lessons.unlisted(study)
    assert not left, (f"{study}: sentences with a causal word that are neither a lesson in "
                      f"lessons/{study}.csv nor argued in lessons/{study}.not.csv:\n"
                      + "\n".join(f"  line {s.line} [{s.section}]: {s.text[:140]}" for s in left))


@pytest.mark.parametrize("study", SLUGS)
def test_no_stale_not_lessons(study):
    """Every argued non-lesson is still printed (a stale entry could excuse a new sentence)."""
    text = lessons.page_text(study)
    stale = [r["sentence"][:90] for r in lessons.not_lessons(study) if lessons.plain(r["sentence"]) not in text]
    assert not stale, f"{study}: {study}.not.csv names sentences the page no longer prints: {stale}"


@pytest.mark.parametrize("study", SLUGS)
def test_the_built_page_shows_where_each_lesson_comes_from(study):
    page = ROOT / "_build" / "html" / f"{lessons.find_study(study).page_path}.html"
    if not page.is_file():
        pytest.skip(f"{page} not built (make book)")
    text = page.read_text(encoding="utf-8")
    c = lessons.counts(study)
    assert re.search(rf"Where each lesson comes from: {c['lessons']} lessons, {c['stated']} stated", text), \
        f"{page}: no 'Where each lesson comes from' table with this study's {c['lessons']} lessons"


def test_the_fidelity_page_counts_lessons_per_chapter():
    page = ROOT / "_build" / "html" / "book" / "fidelity.html"
    if not page.is_file():
        pytest.skip(f"{page} not built (make book)")
    text = page.read_text(encoding="utf-8")
    total = sum(lessons.counts(s)["lessons"] for s in SLUGS)
    assert "lessons-table" in text and f"<strong>{total}</strong>" in text


# --- the checks themselves can fail ---------------------------------------------------------------------------


def _write(folder: Path, study: str, body: str) -> None:
    (folder / f"{study}.csv").write_text(",".join(lessons.COLUMNS) + "\n" + body, encoding="utf-8")


@pytest.mark.parametrize("body, message", [
    ("a-1,Sec,Some sentence.,proven,,,,,,\n", "kind='proven'"),
    ("a-1,Sec,Some sentence.,stated,,,,,,\n", "needs quote"),
    ("a-1,Sec,Some sentence.,inferred,,,,,,\n", "needs rests_on"),
    ("a-1,Sec,Some sentence.,contested,q,s,003_e5c21d25dc7d78e3.txt,10,,\n", "needs other_side"),
    ("a-1,Sec,Some sentence.,stated,q,s,003_e5c21d25dc7d78e3.txt,ten,,\n", "lines='ten'"),
    ("a-1,Sec,Some sentence.,inferred,,,,,why,\na-1,Sec,Other.,inferred,,,,,why,\n", "repeats row 2"),
    ("a-1,Sec,Some sentence.,inferred\n", "4 fields"),
])
def test_a_bad_row_is_named(tmp_path, monkeypatch, body, message):
    monkeypatch.setenv("DB2BOOK_LESSONS", str(tmp_path))
    lessons._load.cache_clear()
    _write(tmp_path, "zedc", body)
    try:
        with pytest.raises(ValueError, match=re.escape(message)) as err:
            lessons.load("zedc")
        assert "row" in str(err.value) and "zedc" in str(err.value)
    finally:
        lessons._load.cache_clear()


def test_a_quote_must_be_at_its_lines():
    text = ["alpha beta", "gamma delta-", "epsilon zeta", "", "", "", "", "", "", "far away words"]
    assert lessons.quote_found("beta gamma", text, 1, 2)
    assert lessons.quote_found("delta-epsilon", text, 2, 3) or lessons.quote_found("deltaepsilon", text, 2, 3)
    assert lessons.quote_found("alpha … zeta", text, 1, 3)
    assert not lessons.quote_found("zeta alpha", text, 1, 3)  # pieces out of order
    assert not lessons.quote_found("far away", text, 1, 2)  # more than three lines off


def test_the_scan_sees_a_new_causal_sentence():
    """A sentence with 'because' in a page's prose is a candidate; in a code cell or exercise statement it is not."""
    page = "\n".join(["# T", "", "## The mechanism", "", "Pools grow because memory is cheap.", "",
                      "```{code-cell} ipython3", "x = 1  # because", "```", "",
                      "```{exercise}", ":label: e", "Why does it fail because of this?", "```", "",
                      "```{solution} e", "It fails because the log is slow.", "```"])
    paras = lessons._prose_paragraphs(page)
    assert [(h, c) for _, h, c, _ in paras] == [("The mechanism", ""), ("The mechanism", "exercise"),
                                                ("The mechanism", "solution")]
    assert "because memory" in paras[0][3] and "log is slow" in paras[2][3]


@pytest.mark.parametrize("study", SLUGS)
def test_readers_see_no_line_numbers_of_the_source_texts(study):
    """The rows keep a text's line numbers for maintainers; the page shows the document's own coordinates."""
    html = lessons.chapter_html(study)
    left = re.findall(r".{40}(?:\bl\.\s*\d+|\blines?\s+\d+|\b00[0-4]_[0-9a-f]+|\b00[0-4]\b(?=\s*(?:§|\)|l\.)))", html)
    assert not left, f"{study}: line references reach the reader: {left[:5]}"


def test_a_line_reference_becomes_a_section_or_goes():
    row = lessons.Lesson("fast_index_traversal", 2, "t-1", "S", "s", "inferred", "", "", "", "", "", "")
    assert lessons.for_readers("the insert test (lines 1213-1217) and Table 4-2", row) == \
        "the insert test (§2.6.1) and Table 4-2"
    assert "line" not in lessons.for_readers("a note (004 line 13565)", row)
