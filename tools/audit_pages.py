"""Walk every page of the built book as a reader meets it and count each defect issue 11 lists.

    python -m tools.audit_pages                 # every page, desktop (1280 x 800) and phone (390 x 844, touch)
    python -m tools.audit_pages --site DIR      # another built site (default: _build/html)
    python -m tools.audit_pages --pages chapters/zhyperlink book/fidelity --examples

Prints one table: a row per defect, a column per size, the count summed over the pages (``--examples``
adds the first few offenders of each, with their page). Exit status 1 when any count is not 0.
The page weight (cold and warm, per chapter, in KB) follows the table.

The same JavaScript checks are used by the browser tests (``tests/test_site_reader.py``), so what
this script counts is what the tests hold at 0.
"""
from __future__ import annotations

import argparse
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

from tools.site import AXE_JS, JS_CHARTS_DRAWN, SITE, browser, serve

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
SIZES = {"desktop": DESKTOP, "phone": PHONE}


def pages() -> list[str]:
    """Every page of the book, in reading order (front matter, chapters, the note, back matter)."""
    from widgets.studies import NOTES, STUDIES

    return ["index", "book/intro", "book/how_to_use", "book/glossary",
            *[s.page_path for s in STUDIES + NOTES], "book/fidelity", "book/teachers_guide", "book/references",
            "search", "genindex"]


#: A snake_case name (``etr_ds_per_s``) that is not part of a file name (``s3_10_results.csv``).
SNAKE = re.compile(r"(?<![\w./-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b(?![./]\w)")
#: A number shown with more decimals than any study prints (five or more): a cell or tooltip field that
#: is that number (with a unit or a flag mark). Prose may need the digits ("106.8115234 GB, which rounds
#: to 106.812; printed 106.811" explains a contradiction) and is not counted.
RAW_FLOAT = re.compile(r"^\s*[+\u2212-]?\d[\d,]*\.\d{5,}\s*(?:%|[A-Za-z\u00b5/]{1,6})?\s*[\u2020\u2021\u00a7]?\s*$")
SCIENTIFIC = re.compile(r"(?<![\w.-])-?\d(?:\.\d+)?e[+-]?\d+(?![\w.])", re.I)  # not a model name (3907-7E7)

#: JavaScript: everything one page shows that the checks read (text only; no clicking).
JS_PAGE = r"""
() => {
  const vw = document.documentElement.clientWidth;
  const visible = e => !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length);
  const text = e => (e.innerText || e.textContent || '').trim();
  const out = {vw, page_width: document.documentElement.scrollWidth, wide: [], clipped: [], cells: [], headers: [],
               sliders: [], chart_text: [], verbatim: [], code: [], index_columns: 0, collisions: [], cut: [],
               dup_ticks: [], spill: []};
  for (const c of document.querySelectorAll('.db2book-chart')) {
    const r = (c.querySelector('svg') || c).getBoundingClientRect();
    if (r.width > vw + 0.5 || r.right > vw + 0.5 || r.left < -0.5) out.wide.push(c.dataset.figure || c.id);
  }
  for (const d of document.querySelectorAll('div.math')) {
    const m = d.querySelector('math');
    if (!m) continue;
    const box = d.getBoundingClientRect(), eq = m.getBoundingClientRect();
    const scrolls = ['auto', 'scroll'].includes(getComputedStyle(d).overflowX);
    if (eq.left < box.left - 0.5 || (eq.right > box.right + 0.5 && !scrolls)) out.clipped.push(text(d).slice(0, 40));
  }
  // tables a reader sees: every table on the page but the tooltip's
  // (a table marked verbatim holds a program's own names and values: the SQL DI miniature's rows)
  for (const t of document.querySelectorAll('table')) {
    if (t.closest('#vg-tooltip-element')) continue;
    const cells = t.classList.contains('db2book-verbatim') ? out.verbatim : out.cells;
    const headers = t.classList.contains('db2book-verbatim') ? out.verbatim : out.headers;
    // a cell's code spans (<code>: a function, a field, a log name) are code, named as code; the rest is read as text
    for (const c of t.querySelectorAll('td')) {
      const k = c.cloneNode(true); k.querySelectorAll('code').forEach(e => e.remove());
      const s = (k.textContent || '').trim(); if (s) cells.push(s);
    }
    for (const c of t.querySelectorAll('th')) { const s = text(c); if (s) headers.push(s); }
    // a bare 0..N index: the first cell of every body row counts 0, 1, 2, ...
    const rows = [...t.querySelectorAll('tbody tr')];
    if (rows.length >= 2 && rows.every((row, i) => row.cells.length > 1 && text(row.cells[0]) === String(i)))
      out.index_columns++;
  }
  for (const c of document.querySelectorAll('.vega-bind-name')) out.sliders.push(text(c));
  for (const c of document.querySelectorAll('.cell_input')) if (visible(c)) out.code.push(text(c));
  out.np_float = (document.body.innerText.match(/np\.float64\(/g) || []).length;
  for (const chart of document.querySelectorAll('.db2book-chart')) {
    const svg = chart.querySelector('svg');
    if (!svg) continue;
    const frame = svg.getBoundingClientRect();
    const name = chart.dataset.figure || chart.id;
    const texts = [...svg.querySelectorAll('text')].filter(t => text(t) && getComputedStyle(t).opacity !== '0');
    for (const t of texts) {
      const s = text(t);
      out.chart_text.push(s);
      const r = t.getBoundingClientRect();
      if (r.width && (r.left < frame.left - 1 || r.right > frame.right + 1)) out.cut.push(name + ': ' + s);
      else if (s.endsWith('…')) out.cut.push(name + ': ' + s);
    }
    // marks drawn outside their plot (a bar from zero on a scale that starts at 600); a point's
    // symbol may reach a little past the edge
    for (const m of svg.querySelectorAll('g.role-mark:not(.mark-text) > path')) {
      if (m.closest('[clip-path]')) continue;  // clipped to its plot: what lies outside is not drawn
      const frame = m.closest('.role-frame');
      const bg = frame && frame.querySelector(':scope > g > path.background');
      if (!bg) continue;
      const p = bg.getBoundingClientRect(), q = m.getBoundingClientRect();
      if (!q.width && !q.height) continue;
      const over = Math.max(q.bottom - p.bottom, p.top - q.top, q.right - p.right, p.left - q.left);
      if (over > 12) { out.spill.push(name + ': ' + Math.round(over) + ' px'); break; }
    }
    // labels of rules and marks (not axes or legends) that overlap another label
    const labels = [];
    for (const g of svg.querySelectorAll('g.mark-text')) {
      if (g.closest('.role-axis, .role-legend, .role-title')) continue;
      for (const t of g.querySelectorAll('text')) {
        const s = text(t), r = t.getBoundingClientRect();
        if (!s || !r.width) continue;
        if (labels.some(l => l.s === s && Math.abs(l.r.x - r.x) < 1 && Math.abs(l.r.y - r.y) < 1)) continue; // a halo
        labels.push({s, r});
      }
    }
    for (let i = 0; i < labels.length; i++) for (let j = i + 1; j < labels.length; j++) {
      const a = labels[i].r, b = labels[j].r;
      if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
        out.collisions.push(name + ': ' + labels[i].s + ' / ' + labels[j].s);
    }
    // the same tick label twice in a row on one axis ("1 2 2 3 3")
    for (const axis of svg.querySelectorAll('.role-axis-label')) {
      const ticks = [...axis.querySelectorAll('text')].map(text);
      for (let i = 1; i < ticks.length; i++)
        if (ticks[i] && ticks[i] === ticks[i - 1]) { out.dup_ticks.push(name + ': ' + ticks[i]); break; }
    }
  }
  for (const s of document.querySelectorAll('.db2book-chart-subtitle, .db2book-chart-title')) {
    if (s.scrollWidth > s.clientWidth + 1) out.cut.push(text(s).slice(0, 60));
  }
  return out;
}
"""

#: JavaScript: the interactive controls of a page, each as a CSS selector and its index (clicked in turn).
CONTROLS = {
    "exercise link in a solution's title": ".admonition.dropdown > .admonition-title a",
    "solution dropdown": ".admonition.dropdown > .admonition-title",
    "tab": ".sd-tab-set > label",
    "disclosure (data, code, ledger rows)": "details > summary",
    "reset button": "button.db2book-reset",
}

DEFECTS = ["charts wider than the viewport", "page wider than the viewport", "clipped equations", "NaN cells",
           "ellipsis cells", "raw floats in tables", "scientific notation (tables, charts)", "True/False cells",
           "snake_case: table headers and row names", "snake_case: table cells", "snake_case: slider labels",
           "snake_case: chart text", "snake_case: tooltips", "raw floats in tooltips", "console errors on load",
           "console errors after clicking the controls", "axe serious/critical (nodes)", "visible static_chart( cells",
           "np.float64(", "0…N index columns", "marks drawn outside their plot", "colliding rule labels",
           "duplicate axis ticks",
           "cut-off chart text and subtitles", "taps on a published point without a tooltip"]


def raw_floats(texts: list[str]) -> list[str]:
    """The fields (cells, or a tooltip's lines and values) that are a number with too many decimals."""
    return [f for t in texts for f in re.split(r"[\t\n]", t) if RAW_FLOAT.match(f)]


def snake_names(texts: list[str]) -> list[str]:
    return [m for t in texts for m in SNAKE.findall(t)]


def text_defects(seen: dict) -> dict[str, list[str]]:
    cells, headers = seen["cells"], seen["headers"]
    every_cell = cells + headers + seen["verbatim"]
    return {
        "charts wider than the viewport": seen["wide"],
        "page wider than the viewport": [f"{seen['page_width']} px"] if seen["page_width"] > seen["vw"] else [],
        "clipped equations": seen["clipped"],
        "NaN cells": [c for c in every_cell if c.lower() in ("nan", "<na>", "nat") or re.search(r"\bNaN\b", c)],
        "ellipsis cells": [c for c in every_cell if c.endswith(("…", "..."))],
        "raw floats in tables": raw_floats(every_cell),
        "scientific notation (tables, charts)": [m for c in every_cell + seen["chart_text"]
                                                 for m in SCIENTIFIC.findall(c)],
        "True/False cells": [c for c in every_cell if c in ("True", "False")],
        "snake_case: table headers and row names": snake_names(headers),
        "snake_case: table cells": snake_names(cells),
        "snake_case: slider labels": snake_names(seen["sliders"]),
        "snake_case: chart text": snake_names(seen["chart_text"]),
        "visible static_chart( cells": [c[:60] for c in seen["code"] if c.lstrip().startswith("static_chart(")
                                        or "\nstatic_chart(" in c],
        "np.float64(": ["np.float64("] * seen["np_float"],
        "0…N index columns": ["a table"] * seen["index_columns"],
        "colliding rule labels": seen["collisions"],
        "marks drawn outside their plot": seen["spill"],
        "duplicate axis ticks": seen["dup_ticks"],
        "cut-off chart text and subtitles": seen["cut"],
    }


def tooltips(page, phone: bool, per_chart: int = 2) -> tuple[list[str], int]:
    """Hover (desktop) or tap (phone) the first published points of every chart: their tooltips' texts,
    and how many showed none."""
    texts, missing = [], 0
    for chart in page.query_selector_all(".db2book-chart"):
        for point in chart.query_selector_all("g.published_marks path")[:per_chart if not phone else 1]:
            try:
                point.scroll_into_view_if_needed(timeout=2000)
                box = point.bounding_box()
                if not box:
                    continue
                x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
                if phone:
                    page.touchscreen.tap(x, y)
                else:
                    page.mouse.move(x, y)
                page.wait_for_selector("#vg-tooltip-element.visible", timeout=2000)
                texts.append(page.inner_text("#vg-tooltip-element"))
            except Exception:
                missing += 1
            finally:
                page.mouse.move(0, 0) if not phone else None
    return texts, missing


def click_every_control(page, url: str) -> int:
    """Click each interactive control once (as a reader would); returns how many were clicked."""
    clicked = 0
    for selector in CONTROLS.values():
        for i in range(len(page.query_selector_all(selector))):
            element = page.query_selector_all(selector)[i]
            try:
                if not element.is_visible():
                    continue
                element.click(timeout=2000)
                clicked += 1
            except Exception:
                continue
            if page.url.split("#")[0] != url:  # a link left the page: come back
                page.goto(url, wait_until="networkidle")
                page.wait_for_function(JS_CHARTS_DRAWN, timeout=30_000)
    page.wait_for_timeout(200)
    return clicked


def _axe(page) -> list[str]:
    # the boxes the clicks opened fade in: measure colours once they have (axe saw blends mid-fade)
    page.evaluate("() => Promise.all(document.getAnimations().map(a => a.finished.catch(() => null)))")
    page.add_script_tag(content=AXE_JS.read_text(encoding="utf-8"))
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']} ({v['impact']}): {n['target']}" for v in result["violations"]
            if v["impact"] in ("serious", "critical") for n in v["nodes"]]


def audit_page(b, base: str, name: str, size: str) -> dict[str, list[str]]:
    """Every defect of one page at one size, as a list of offenders per defect."""
    from tools.site import RequestLog

    ctx = b.new_context(**SIZES[size])
    try:
        page = ctx.new_page()
        log = RequestLog(page)
        url = f"{base}/{name}.html"
        page.goto(url, wait_until="networkidle")
        page.wait_for_function(JS_CHARTS_DRAWN, timeout=30_000)
        found = text_defects(page.evaluate(JS_PAGE))
        found["console errors on load"] = list(log.errors())
        tips, missing = tooltips(page, phone=size == "phone")
        found["snake_case: tooltips"] = snake_names(tips)
        found["raw floats in tooltips"] = raw_floats(tips)
        found["taps on a published point without a tooltip"] = ["a point"] * missing if size == "phone" else []
        before = len(log.errors())
        click_every_control(page, url)
        found["console errors after clicking the controls"] = list(log.errors()[before:])
        found["axe serious/critical (nodes)"] = _axe(page) if size == "desktop" else []
        return {k: [f"{name}: {v}" for v in vals] for k, vals in found.items()}
    finally:
        ctx.close()


def page_weight(b, base: str, name: str) -> tuple[int, int]:
    """A page's bytes over the wire: cold (empty cache) and warm (after the intro, same browser)."""
    ctx = b.new_context(**DESKTOP)
    try:
        page = ctx.new_page()
        sizes: dict[str, int] = {}
        cdp = ctx.new_cdp_session(page)
        cdp.on("Network.loadingFinished", lambda e: sizes.__setitem__(e["requestId"], int(e["encodedDataLength"])))
        cdp.send("Network.enable")

        def load(url):
            sizes.clear()
            page.goto(url, wait_until="networkidle")
            page.wait_for_function(JS_CHARTS_DRAWN, timeout=30_000)
            page.wait_for_load_state("networkidle")
            return sum(sizes.values())

        cold = load(f"{base}/{name}.html")
        # warm: a reader who comes from the intro (the files every page shares are in the cache)
        fresh = b.new_context(**DESKTOP)
        ctx.close()
        ctx = fresh
        page = ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        cdp.on("Network.loadingFinished", lambda e: sizes.__setitem__(e["requestId"], int(e["encodedDataLength"])))
        cdp.send("Network.enable")
        load(f"{base}/book/intro.html")
        warm = load(f"{base}/{name}.html")
        return cold, warm
    finally:
        ctx.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, default=SITE)
    parser.add_argument("--pages", nargs="*", default=None)
    parser.add_argument("--examples", action="store_true", help="print the first offenders of each defect")
    parser.add_argument("--no-weight", action="store_true")
    args = parser.parse_args(argv)
    names = args.pages or pages()
    totals: dict[str, Counter] = defaultdict(Counter)
    examples: dict[str, list[str]] = defaultdict(list)
    with serve(args.site) as base, browser() as b:
        for name in names:
            for size in SIZES:
                for defect, offenders in audit_page(b, base, name, size).items():
                    totals[defect][size] += len(offenders)
                    examples[defect] += [f"[{size}] {o}" for o in offenders]
        weights = {} if args.no_weight else {n: page_weight(b, base, n) for n in names if n.startswith("chapters/")
                                             or n == "book/zedc"}
    print(f"{len(names)} pages, desktop 1280 x 800 and phone 390 x 844 (touch); axe on desktop")
    print(f"{'defect':<48} {'desktop':>8} {'phone':>8}")
    for defect in DEFECTS:
        print(f"{defect:<48} {totals[defect]['desktop']:>8} {totals[defect]['phone']:>8}")
    if args.examples:
        for defect in DEFECTS:
            if examples[defect]:
                print(f"\n{defect}:")
                for line in list(dict.fromkeys(examples[defect]))[:8]:
                    print("   ", line[:200])
    if weights:
        print(f"\n{'page weight':<40} {'cold KB':>8} {'warm KB':>8}")
        for n, (cold, warm) in weights.items():
            print(f"{n:<40} {cold / 1000:>8.0f} {warm / 1000:>8.0f}")
    return 1 if any(sum(c.values()) for c in totals.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
