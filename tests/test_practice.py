"""The "Practise" block on the static page, as a reader meets it: no kernel, desktop and phone.

For every chapter, at 1280 px and at 390 px (touch): the practice set is not fetched until the block is
opened; then a right answer (read from the same JSON the page reads) is marked right, a wrong one not
yet, a malformed one gets a message saying what is accepted; "Another problem" draws another seed; a
kind picked gives a problem of that kind; axe-core finds nothing serious; nothing leaves the site; the
block fits the phone's width. One chapter is worked with the keyboard alone. Screenshots of the block,
opened and checked, go to ``_build/screenshots/practice_<study>_<size>.png``.
"""
from __future__ import annotations

import json

import pytest

from tools.site import AXE_JS, ROOT, SITE, browser, open_page, serve
from widgets.studies import STUDIES

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not (SITE / "_static" / "practice").is_dir(), reason="run `make book` first")]
SHOTS = ROOT / "_build" / "screenshots"
SIZES = {"desktop": {"viewport": {"width": 1280, "height": 900}},
         "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
                   "device_scale_factor": 2}}
BLOCK = "details.db2-practice"


@pytest.fixture(scope="module")
def site():
    with serve() as base, browser() as b:
        yield base, b


def practice_set(study: str) -> dict:
    return json.loads((SITE / "_static" / "practice" / f"{study}.json").read_text(encoding="utf-8"))


def right_text(part: dict, yes_no: str) -> str:
    """A right answer as a reader types it: the printed answer (1,234 with its comma), 12% for a percent."""
    if part["unit"] == yes_no:
        return part["shown"]  # yes / no
    return part["shown"] + ("%" if part["unit"] == "%" else "")


def wrong_text(part: dict, yes_no: str) -> str:
    if part["unit"] == yes_no:
        return "0" if part["answer"] else "1"
    return repr(part["answer"] * 2 + 1)


def current(page, found: dict) -> dict:
    seed = int(page.get_attribute(BLOCK, "data-seed"))
    return next(p for p in found["problems"] if p["seed"] == seed)


def check_one(page, text: str) -> tuple[str, str, str | None]:
    """Type ``text`` as the first part's answer, press Check: (the part's mark, the summary, aria-invalid)."""
    page.fill(f"{BLOCK} .db2-practice-part input >> nth=0", text)
    page.click(f"{BLOCK} .db2-practice-check")
    mark = page.inner_text(f"{BLOCK} .db2-practice-mark >> nth=0")
    return mark, page.inner_text(f"{BLOCK} .db2-practice-result"), \
        page.get_attribute(f"{BLOCK} .db2-practice-part input >> nth=0", "aria-invalid")


def open_block(page):
    page.click(f"{BLOCK} > summary")
    page.wait_for_selector(f"{BLOCK} .db2-practice-part input", timeout=10_000)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("study", [s.slug for s in STUDIES])
def test_practice_block_checks_answers(site, study, size):
    base, b = site
    found = practice_set(study)
    ctx, page, log = open_page(b, f"{base}/chapters/{study}.html", **SIZES[size])
    try:
        assert page.locator(BLOCK).count() == 1
        assert not any("/_static/practice/" in u for u in log.urls), "the set was fetched before the block opened"
        page.locator(BLOCK).scroll_into_view_if_needed()
        open_block(page)
        assert sum("/_static/practice/" in u for u in log.urls) == 1
        problem = current(page, found)
        first = problem["parts"][0]
        shown = page.inner_text(f"{BLOCK} .db2-practice-problem")
        assert f"seed {problem['seed']}" in shown and f"-s {problem['seed']} -c" in shown
        assert first["name"] in page.inner_text(f"{BLOCK} .db2-practice-part label >> nth=0")

        mark, summary, invalid = check_one(page, right_text(first, found["yes_no"]))
        assert "Right" in mark and summary.startswith("1 of "), (problem["seed"], first, mark, summary)
        assert invalid is None
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator(f"{BLOCK} .db2-practice-solution > summary").click()
        assert first["shown"] in page.inner_text(f"{BLOCK} .db2-practice-solution-body")
        page.locator(BLOCK).screenshot(path=str(SHOTS / f"practice_{study}_{size}.png"))

        mark, summary, _ = check_one(page, wrong_text(first, found["yes_no"]))
        assert "Not yet" in mark and summary.startswith("0 of "), (problem["seed"], first, mark)

        mark, summary, invalid = check_one(page, "12,34" if first["unit"] != found["yes_no"] else "maybe")
        assert "Can’t read" in mark and ("comma" in mark or "1 (yes) or 0 (no)" in mark), mark
        assert "Could not read" in summary and invalid == "true"
        if first["unit"] != found["yes_no"]:
            mark, _, _ = check_one(page, "about 5")
            assert "not a number" in mark, mark

        seeds = {problem["seed"]}
        for _ in range(3):
            page.click(f"{BLOCK} .db2-practice-another")
            seeds.add(current(page, found)["seed"])
            assert page.input_value(f"{BLOCK} .db2-practice-part input >> nth=0") == ""
        assert len(seeds) == 4, f"'Another problem' repeated a seed: {seeds}"
        kind = found["kinds"][-1]
        page.select_option(f"{BLOCK} .db2-practice-kind", kind)
        assert current(page, found)["kind"] == kind

        if size == "phone":
            width = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            assert width[0] <= width[1], f"the page scrolls sideways with the block open: {width}"
            box = page.locator(BLOCK).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width[1] + 0.5
        page.add_script_tag(content=AXE_JS.read_text(encoding="utf-8"))
        result = page.evaluate(f"() => axe.run(document.querySelector('{BLOCK}'), {{resultTypes: ['violations']}})")
        bad = [f"{v['id']} ({v['impact']}): {v['nodes'][0]['target']}" for v in result["violations"]
               if v["impact"] in ("serious", "critical", "moderate")]
        assert not bad, bad
        assert not log.outside(), log.outside()
        assert not log.errors(), log.errors()
    finally:
        ctx.close()


def test_practice_works_with_the_keyboard_alone(site):
    base, b = site
    found = practice_set("sap_banking")
    ctx, page, log = open_page(b, f"{base}/chapters/sap_banking.html", **SIZES["desktop"])
    try:
        page.focus(f"{BLOCK} > summary")
        page.keyboard.press("Enter")
        page.wait_for_selector(f"{BLOCK} .db2-practice-part input", timeout=10_000)
        page.keyboard.press("Tab")  # to the kind of problem
        assert page.evaluate("() => document.activeElement.className") == "db2-practice-kind"
        page.keyboard.press("Tab")
        before = current(page, found)["seed"]
        page.keyboard.press("Enter")  # "Another problem"
        problem = current(page, found)
        assert problem["seed"] != before
        page.focus(f"{BLOCK} .db2-practice-part input >> nth=0")
        page.keyboard.type(right_text(problem["parts"][0], found["yes_no"]))
        page.keyboard.press("Enter")  # submits the form: Check
        assert page.inner_text(f"{BLOCK} .db2-practice-result").startswith("1 of ")
        outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
        assert outline != "none", "the focused answer box shows no focus ring"
        assert not log.errors(), log.errors()
    finally:
        ctx.close()


def test_answers_are_read_in_the_forms_people_type(site):
    """A fraction takes 0.0649 or 6.49%; a percent 0.78 or 0.78%; a large number 1,234 or 1234; the units'
    own words after a number are read; a percent answered as a fraction is not right, and says why."""
    base, b = site
    ctx, page, log = open_page(b, f"{base}/chapters/fast_index_traversal.html", **SIZES["phone"])
    try:
        found = practice_set("fast_index_traversal")
        open_block(page)
        page.select_option(f"{BLOCK} .db2-practice-kind", "cpu_share")
        share, cut = current(page, found)["parts"]
        assert (share["unit"], cut["unit"]) == ("", "%")
        for typed in (f"{share['answer']:.4f}", f"{100 * share['answer']:.2f}%", f" {100 * share['answer']:.2f} % "):
            mark, _, _ = check_one(page, typed)
            assert "Right" in mark, (typed, share, mark)
        page.fill(f"{BLOCK} .db2-practice-part input >> nth=0", "")
        answer = f"{cut['answer']:.3f}"
        page.fill(f"{BLOCK} .db2-practice-part input >> nth=1", answer + "%")
        page.click(f"{BLOCK} .db2-practice-check")
        assert "Right" in page.inner_text(f"{BLOCK} .db2-practice-mark >> nth=1")
        page.fill(f"{BLOCK} .db2-practice-part input >> nth=1", f"{cut['answer'] / 100:.5f}")
        page.click(f"{BLOCK} .db2-practice-check")
        assert "in percent" in page.inner_text(f"{BLOCK} .db2-practice-mark >> nth=1")

        page.select_option(f"{BLOCK} .db2-practice-kind", "")
        for _ in range(100):  # a problem with an answer of thousands
            problem = current(page, found)
            big = [p for p in problem["parts"] if p["unit"] != found["yes_no"] and abs(p["answer"]) >= 1000]
            if big:
                break
            page.click(f"{BLOCK} .db2-practice-another")
        big = big[0]
        index = problem["parts"].index(big)
        for typed in (f"{big['answer']:,.1f}", f"{big['answer']:.1f}", f"{big['answer']:.1f} {big['unit']}"):
            page.fill(f"{BLOCK} .db2-practice-part input >> nth={index}", typed)
            page.click(f"{BLOCK} .db2-practice-check")
            assert "Right" in page.inner_text(f"{BLOCK} .db2-practice-mark >> nth={index}"), typed
        assert not log.errors(), log.errors()
    finally:
        ctx.close()
