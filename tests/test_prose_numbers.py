"""Numbers typed in a chapter's prose are glued from code, printed cells of ``data/``, or argued.

``tools/prose_numbers.py`` lists every number in each page's prose that is neither glued
(``{glue:text}``) nor a printed cell of the study's ``data/`` at its printed precision nor a reference
(table, section, version, year). Each must have a row with a reason in
``tests/prose_numbers_allowed.csv`` (worked arithmetic with its operands beside it, a made-up
exercise input, a unit constant, a quotation not transcribed into ``data/``); a row that matches
nothing any more must go.
"""
from __future__ import annotations

import pytest

from tools import prose_numbers as pn


def test_every_typed_number_is_glued_printed_or_argued():
    missing, _ = pn.report()
    assert not missing, "numbers typed in prose, neither glued, printed in data/ nor argued in " \
        f"{pn.ALLOW_FILE.name}:\n" + "\n".join(f"{n.page}.md:{n.line}: {n.number} | {n.text[:100]}" for n in missing)


def test_the_allow_list_has_no_stale_rows():
    _, stale = pn.report()
    assert not stale, f"rows of {pn.ALLOW_FILE.name} that match no typed number: {stale}"


def test_every_allowed_number_is_argued_not_deferred():
    """Each row gives its own reason; none is a placeholder left for later."""
    deferred = [k for k, why in pn.allowed().items() if why.startswith(("BACKLOG", "TODO")) or len(why) < 20]
    assert not deferred


def test_prose_keeps_the_line_numbers(tmp_path):
    """Blanked regions keep their newlines, so a listed number's line is its line in the .md file."""
    text = "---\nx: 1\n---\n\n```{code-cell} ipython3\na = 1\n```\nTable\n4 and {term}`x`\nthen 12.5 s\n"
    assert pn.prose(text).count("\n") == text.count("\n")
    (tmp_path / "p.md").write_text(text)
    pn_root = pn.ROOT
    try:
        pn.ROOT = tmp_path
        assert [(n.line, n.number) for n in pn.typed_numbers("p")] == [(10, "12.5")]
    finally:
        pn.ROOT = pn_root


@pytest.mark.parametrize("text, numbers", [
    ("fell from 14.90 s to 10.82 s", ["14.90", "10.82"]),  # a typed derived number is seen, precision kept
    ("38,400 reads and $10{,}560$ users", ["38400", "10560"]),
    ("Table 4 and §3.10, Tables 10 to 17, DB2 11, in 2014", []),  # references and years are not quantities
    ("the {glue:text}`fit_think:.2f` s and `x = 12.5`", []),  # glued and code are not typed
    ("S30801B1 on a z13 with BP32K", []),  # numbers inside names
])
def test_the_scanner_reads_prose_as_a_reader_does(tmp_path, monkeypatch, text, numbers):
    monkeypatch.setattr(pn, "ROOT", tmp_path)
    (tmp_path / "page.md").write_text(f"---\nx: 1\n---\n\n{text}\n\n```{{code-cell}} ipython3\ny = 99.5\n```\n")
    assert [n.number for n in pn.typed_numbers("page")] == numbers


def test_a_printed_cell_matches_at_its_printed_precision():
    assert pn.is_printed("708.77", "large_memory")  # Table 4 prints 708.77 DS/s
    assert not pn.is_printed("708.8", "large_memory")  # the same value at another precision is not the cell
    assert pn.is_printed("38.4", "large_memory")  # printed "38.4K"
    assert not pn.is_printed("14.90", "large_memory")  # a derived number (users / ETR) is not printed
