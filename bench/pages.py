"""Page weight and time to interactive of every page of the built site (bench/README.md, 2)."""
from __future__ import annotations

import re

from tools.site import SITE
from widgets.studies import STUDIES

from bench.common import KB, NO_GOAL, Rows


#: The book's pages (the table of contents, _toc.yml), as paths under _build/html without .html.
CHAPTER_PAGES = tuple(f"chapters/{s.slug}" for s in STUDIES)  # in book order
PAGES = ("book/intro", "book/how_to_use", "book/glossary", *CHAPTER_PAGES, "book/zedc", "book/fidelity",
         "book/teachers_guide", "book/references")
CHAPTER = "chapters/large_memory"  # the static-slider latency is measured here
CHAPTER_WARM_GOAL_KB = 1500
CHAPTER_COLD_GOAL_KB = 1500  # a chapter's first load with an empty cache (issue 11)

# --- 2. page weight and time to interactive -------------------------------------------------

JS_INTERACTIVE = """
() => {
  if (document.readyState !== 'complete') return false;
  if (window.db2bookDrawAll) window.db2bookDrawAll();  // charts draw near the screen; here: every one, now
  const charts = document.querySelectorAll('.db2book-chart');
  for (const c of charts) { if (c.getAttribute('data-rendered') !== 'true') return false; }
  return performance.now();
}
"""


class ByteCounter:
    """Bytes received from the network by one page, from the DevTools protocol.

    ``Network.loadingFinished.encodedDataLength`` is what came over the wire (headers and body);
    a response served from Chromium's memory or disk cache adds (close to) nothing.
    """

    def __init__(self, context, page):
        self.bytes = 0
        self.requests = 0
        self.by_url: dict[str, int] = {}
        self._urls: dict[str, str] = {}
        self.cdp = context.new_cdp_session(page)
        self.cdp.on("Network.responseReceived", self._response)
        self.cdp.on("Network.loadingFinished", self._done)
        self.cdp.send("Network.enable")

    def _response(self, event):
        self._urls[event["requestId"]] = event["response"]["url"]

    def _done(self, event):
        size = int(event.get("encodedDataLength") or 0)
        self.bytes += size
        self.requests += 1
        url = self._urls.get(event["requestId"], "?")
        self.by_url[url] = self.by_url.get(url, 0) + size

    def reset(self):
        self.bytes = 0
        self.requests = 0
        self.by_url = {}


#: The parts of a page's weight, by what each response is (the first pattern that matches).
WEIGHT_PARTS = (("Vega runtime and chart code", "/_static/vega/"),
                ("practice block: script and stylesheet", "/_static/practice."),
                ("fonts", (".woff2", ".woff", ".ttf")), ("theme stylesheets", ".css"), ("theme scripts", ".js"))
#: A chart's spec (an inert JSON block) and its call, as widgets/render.py writes them.
CHART_CALL = re.compile(r'<script type="application/json" id="db2book-chart-[\w-]+-spec">.*?</script>\n'
                        r"<script>window\.db2bookEmbed\(.*?\);</script>", re.S)


def weight_parts(by_url: dict[str, int], page: str) -> dict[str, int]:
    """A page's transfer split into its parts (bytes): the page's own HTML, and in it the charts'
    compiled specs and tables (measured on the built file), the Vega runtime, stylesheets, fonts,
    scripts and anything else."""
    parts = {"page HTML (text, tables, navigation)": 0, "page HTML: chart specs and their data": 0}
    parts.update({name: 0 for name, _ in WEIGHT_PARTS})
    parts["other"] = 0
    own = f"/{page}.html"
    for url, size in by_url.items():
        path = url.split("?", 1)[0]
        if path.endswith(own):
            built = SITE / f"{page}.html"
            charts = sum(len(m.group(0).encode()) for m in CHART_CALL.finditer(built.read_text(encoding="utf-8"))) \
                if built.exists() else 0
            charts = min(charts, size)
            parts["page HTML: chart specs and their data"] += charts
            parts["page HTML (text, tables, navigation)"] += size - charts
            continue
        for name, pattern in WEIGHT_PARTS:
            if (path.endswith(pattern) if isinstance(pattern, tuple) else
                    (pattern in path if pattern.startswith("/") else path.endswith(pattern))):
                parts[name] += size
                break
        else:
            parts["other"] += size
    return parts


def bench_practice_sets(rows: Rows) -> None:
    """The practice set each chapter fetches when its "Practise" block is opened (not part of the first
    load): the built JSON's bytes, as served uncompressed."""
    for study in STUDIES:
        name = f"practice set (fetched when the block opens): chapters/{study.slug}"
        built = SITE / "_static" / "practice" / f"{study.slug}.json"
        if built.exists():
            rows.measured(name, built.stat().st_size / KB, "KB")
        else:
            rows.failed(name, "KB", NO_GOAL, f"{built} is not built: run `make book`")


def site_missing() -> str | None:
    missing = [p for p in PAGES if not (SITE / f"{p}.html").exists()]
    if missing:
        return (f"the site is not built ({SITE} lacks {', '.join(missing)}): "
                "run `make book` (or `make bench`, which builds it first)")
    return None


def load(page, url: str, timeout_ms: float = 60_000) -> float:
    """Navigate and wait until the page is interactive; returns ms since navigation start."""
    page.goto(url, wait_until="commit", timeout=timeout_ms)
    handle = page.wait_for_function(JS_INTERACTIVE, polling="raf", timeout=timeout_ms)
    tti = float(handle.json_value())
    page.wait_for_load_state("networkidle", timeout=timeout_ms)
    return tti


def page_rows(name: str) -> tuple[str, str, str, str]:
    """Row names (cold weight, warm weight, time to interactive) and the warm row's goal."""
    goal_warm = f"<= {CHAPTER_WARM_GOAL_KB} KB" if name in CHAPTER_PAGES else NO_GOAL
    n_warm = f"page weight warm (after intro; goal on this row): {name}" if name in CHAPTER_PAGES \
        else f"page weight warm (after intro): {name}"
    return f"page weight cold: {name}", n_warm, f"time to interactive (cold): {name}", goal_warm


def bench_pages(rows: Rows, b, base: str) -> None:
    for name in PAGES:
        n_cold, n_warm, n_tti, goal_warm = page_rows(name)
        url = f"{base}/{name}.html"
        # cold: a new context has an empty cache
        try:
            ctx = b.new_context(viewport={"width": 1280, "height": 900})
            try:
                page = ctx.new_page()
                counter = ByteCounter(ctx, page)
                tti = load(page, url)
                goal_cold = f"<= {CHAPTER_COLD_GOAL_KB} KB" if name in CHAPTER_PAGES else NO_GOAL
                rows.measured(n_cold, counter.bytes / KB, "KB", goal_cold, note=f"{counter.requests} responses")
                if name in CHAPTER_PAGES:  # what the cold weight is made of
                    for part, size in weight_parts(counter.by_url, name).items():
                        rows.measured(f"  part of cold weight: {name}: {part}", size / KB, "KB")
                rows.measured(n_tti, tti, "ms")
            finally:
                ctx.close()
        except Exception as exc:  # noqa: BLE001
            rows.failed([n_cold, n_tti], "KB", NO_GOAL, exc)
            rows.rows[-1]["unit"] = "ms"
        if name in CHAPTER_PAGES:  # a phone (390 x 844, touch), cold cache: when can the reader use the charts?
            n_phone = f"time to interactive (phone 390 px, cold): {name}"
            try:
                ctx = b.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                    device_scale_factor=2)
                try:
                    rows.measured(n_phone, load(ctx.new_page(), url), "ms", note="no CPU or network throttling")
                finally:
                    ctx.close()
            except Exception as exc:  # noqa: BLE001
                rows.failed(n_phone, "ms", NO_GOAL, exc)
        # warm: the same context visited the intro first
        try:
            ctx = b.new_context(viewport={"width": 1280, "height": 900})
            try:
                page = ctx.new_page()
                counter = ByteCounter(ctx, page)
                load(page, f"{base}/book/intro.html")
                page.wait_for_timeout(200)
                counter.reset()
                load(page, url)
                rows.measured(n_warm, counter.bytes / KB, "KB", goal_warm, note=f"{counter.requests} responses")
            finally:
                ctx.close()
        except Exception as exc:  # noqa: BLE001
            rows.failed(n_warm, "KB", goal_warm, exc)
