"""Benchmark of the book: build time, page weight, time to interactive, redraw and Voila latency,
model speed and chart data weight.

Run with ``make bench`` (builds the site first) or ``.venv/bin/python bench/run.py [--json]``
from the repository root. Prints a table (or, with ``--json``, the JSON) and always writes the
JSON to ``bench/results/latest.json``. Every measurement is its own function; one that fails
gives a row with ``value: null`` and its error, and the others still run. See bench/README.md.
"""
from __future__ import annotations

import argparse
import contextlib
import datetime as _dt
import fnmatch
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.site import SITE, browser, serve, voila  # noqa: E402  (needs ROOT on sys.path)
from widgets.studies import STUDIES, all_figures  # noqa: E402  (light: no plotting library)

RESULTS = ROOT / "bench" / "results" / "latest.json"
BIN = Path(sys.executable).parent  # the venv's bin (not resolved: it is the venv's python)
KB = 1000  # decimal units throughout: 1 KB = 1000 bytes, 1 MB = 1000 KB

#: The book's pages (the table of contents, _toc.yml), as paths under _build/html without .html.
CHAPTER_PAGES = tuple(f"chapters/{s.slug}" for s in STUDIES)  # in book order
PAGES = ("book/intro", "book/how_to_use", "book/glossary", *CHAPTER_PAGES, "book/zedc", "book/fidelity",
         "book/teachers_guide", "book/references")
CHAPTER = "chapters/large_memory"  # the static-slider latency is measured here
CHAPTER_WARM_GOAL_KB = 1500
CHAPTER_COLD_GOAL_KB = 1500  # a chapter's first load with an empty cache (issue 11)

NO_GOAL = "report only"


class Rows:
    """The rows of the benchmark; every row has name, value, unit, goal and met (and error)."""

    def __init__(self):
        self.rows: list[dict] = []

    def add(self, name: str, value, unit: str, goal: str = NO_GOAL, met: bool | None = None,
            error: str | None = None, note: str | None = None, samples: list | None = None) -> None:
        row = {"name": name, "value": value, "unit": unit, "goal": goal, "met": met}
        if error is not None:
            row["error"] = error
        if note is not None:
            row["note"] = note
        if samples is not None:
            row["samples"] = [round(float(x), 3) for x in samples]
        self.rows.append(row)

    def measured(self, name: str, value: float | None, unit: str, goal: str = NO_GOAL,
                 note: str | None = None, samples: list | None = None) -> None:
        """A measured row; ``met`` follows from ``goal`` ("<= x" or "< x") when it has one."""
        self.add(name, None if value is None else round(float(value), 3), unit, goal,
                 _met(value, goal), note=note, samples=samples)

    def failed(self, names: list[str] | str, unit: str, goal: str, exc: BaseException | str) -> None:
        msg = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}".strip()
        msg = " ".join(msg.split())[:400]
        for name in [names] if isinstance(names, str) else names:
            self.add(name, None, unit, goal, None, error=msg)


def _met(value, goal: str) -> bool | None:
    if value is None or goal == NO_GOAL:
        return None
    op, _, limit = goal.partition(" ")
    limit = float(limit.split()[0])
    return {"<=": value <= limit, "<": value < limit, ">=": value >= limit, ">": value > limit}[op]


def _median(xs):
    return statistics.median(xs) if xs else None


# --- 1. build times -----------------------------------------------------------------------


def _ignored_patterns() -> list[str]:
    pats = [".git", ".git/", "bench/results/"]
    gi = ROOT / ".gitignore"
    if gi.exists():
        for line in gi.read_text().splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                pats.append(line)
    return pats


def _is_ignored(rel: str, is_dir: bool, pats: list[str]) -> bool:
    name = rel.rsplit("/", 1)[-1]
    for pat in pats:
        if pat.endswith("/"):
            if not is_dir:
                continue
            pat = pat[:-1]
        target = rel if "/" in pat else name
        if fnmatch.fnmatch(target, pat.lstrip("/")):
            return True
    return False


def copy_sources(dest: Path) -> int:
    """Copy the repository's sources (what git would track: everything the .gitignore does not
    exclude, so no _build, .venv or caches) into ``dest``; returns the number of files."""
    pats = _ignored_patterns()
    count = 0
    for dirpath, dirnames, filenames in os.walk(ROOT):
        rel_dir = os.path.relpath(dirpath, ROOT)
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        dirnames[:] = [d for d in dirnames if not _is_ignored(rel_dir + d, True, pats)]
        for fn in filenames:
            rel = rel_dir + fn
            if _is_ignored(rel, False, pats):
                continue
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(os.path.join(dirpath, fn), target)
            count += 1
    return count


def _build_env(src: Path) -> dict:
    return dict(os.environ, DB2BOOK_BUILD="1", PYDEVD_DISABLE_FILE_VALIDATION="1",
                JUPYTER_CONFIG_DIR=str(src / "dashboards" / "jupyter-config"))


def _timed(cmd: list[str], src: Path) -> tuple[float, float, str]:
    """Run one build step in ``src``: (wall-clock s, CPU s of it and every process it waited for, its output).

    The CPU time (user + sys, from the rusage of reaped children: the kernels too) is what other
    work on a shared machine inflates least."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=src, env=_build_env(src), capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout)[-600:]
        raise RuntimeError(f"{' '.join(Path(c).name for c in cmd[:3])} exited {proc.returncode}: {tail}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu, proc.stdout + proc.stderr


def _jupyter_book(args: list[str], src: Path) -> tuple[float, float, str]:
    """``make book-fast`` (no args) or the build half of ``make book`` (``--all``), in ``src``."""
    return _timed([str(BIN / "jupyter-book"), "build", *args, "-W", "-n", "--keep-going", str(src)], src)


def _make_book(src: Path, jobs: int) -> tuple[float, float, str]:
    """What ``make book`` runs: the notebooks into the execution cache, ``jobs`` at a time, then the strict build."""
    t1, c1, out1 = _timed([sys.executable, "-m", "tools.execute", "--jobs", str(jobs)], src)
    t2, c2, out2 = _jupyter_book(["--all"], src)
    return t1 + t2, c1 + c2, out1 + out2


#: tools.execute's line for each notebook it ran, and myst-nb's for one it ran itself.
EXECUTED = re.compile(r"tools\.execute: (\S+) executed in ([\d.]+) s \(CPU ([\d.]+) s\)"
                      r"|(\S+\.md): Executed notebook in ([\d.]+) seconds")


def executed(log: str, src: Path) -> dict[str, tuple[float, float | None]]:
    """Per notebook executed during a build, from its log: page -> (wall-clock s, CPU s or None).
    myst-nb's own line (a notebook the build ran itself) gives no CPU time."""
    out = {}
    for m in EXECUTED.finditer(log):
        page, secs, cpu = (m.group(1), m.group(2), m.group(3)) if m.group(1) else (m.group(4), m.group(5), None)
        name = (Path(page).resolve().relative_to(src.resolve()) if Path(page).is_absolute() else Path(page))
        out[name.with_suffix("").as_posix()] = (float(secs), None if cpu is None else float(cpu))
    return out


def _edit_code_cell(page: Path) -> None:
    """Append a comment to the last code cell of a MyST page: its notebook must run again."""
    text = page.read_text(encoding="utf-8")
    cell = text.rindex("```{code-cell}")
    close = text.index("\n```", cell + 3)
    page.write_text(text[:close] + "\n# edited by bench/run.py" + text[close:], encoding="utf-8")


def _check_built(html: Path) -> None:
    """A build that "succeeds" without its pages or charts would time the wrong thing."""
    missing = [p for p in PAGES if not (html / f"{p}.html").exists()]
    if missing:
        raise RuntimeError(f"the build wrote no {', '.join(missing)}")
    if "db2book-chart" not in (html / f"{CHAPTER}.html").read_text(encoding="utf-8"):
        raise RuntimeError(f"the built {CHAPTER}.html draws no chart (notebook not executed?)")


BUILD_JOBS = 2  # make book's JOBS
EDITED = "chapters/zhyperlink"  # the chapter the rebuild rows edit


def bench_build(rows: Rows) -> None:
    clean = f"build: clean (fresh copy; make book: notebooks {BUILD_JOBS} at a time, then --all)"
    clean_cpu = "build: clean, CPU time (user+sys, every process)"
    again = "build: make book again, nothing changed (every page read, notebooks from the cache)"
    touched = f"build: make book-fast after touching one chapter ({EDITED}.md)"
    edited = f"build: make book-fast after editing a code cell of {EDITED}.md (its notebook runs again)"
    names = [clean, clean_cpu, again, touched, edited]
    with tempfile.TemporaryDirectory(prefix="db2book-bench-") as tmp:
        src = Path(tmp) / "book-src"
        try:
            n = copy_sources(src)
            load = _loadavg()
            elapsed, cpu, log = _make_book(src, BUILD_JOBS)
            _check_built(src / "_build" / "html")
            note = f"{n} source files; 1-min load average {load} before, {_loadavg()} after, on {os.cpu_count()} CPUs"
            rows.measured(clean, elapsed, "s", "<= 60 s", note=note)
            rows.measured(clean_cpu, cpu, "s", note="user + sys of the build and its kernels: load inflates it less")
            for page, (secs, cpu) in sorted(executed(log, src).items()):
                rows.measured(f"build: notebook execution, CPU (clean build): {page}", cpu, "s",
                              note=f"user + sys of its kernel and client; wall-clock {secs:.1f} s, "
                                   f"{BUILD_JOBS} kernels at a time")
        except Exception as exc:  # noqa: BLE001 - report, never crash
            rows.failed(names, "s", NO_GOAL, exc)
            return
        steps = [(again, lambda: _make_book(src, BUILD_JOBS), NO_GOAL),
                 (touched, lambda: ((src / f"{EDITED}.md").touch(), _jupyter_book([], src))[1], "<= 15 s"),
                 (edited, lambda: (_edit_code_cell(src / f"{EDITED}.md"), _jupyter_book([], src))[1], "<= 15 s")]
        for name, step, goal in steps:
            try:
                time.sleep(1.1)  # a new mtime on file systems with one-second resolution
                elapsed, cpu, log = step()
                _check_built(src / "_build" / "html")
                ran = executed(log, src)
                rows.measured(name, elapsed, "s", goal, note=f"CPU {cpu:.1f} s; notebooks run: "
                              + (", ".join(f"{p} {s:.1f} s" for p, (s, _) in ran.items()) or "none"))
            except Exception as exc:  # noqa: BLE001
                rows.failed(name, "s", goal, exc)


# --- 2. page weight and time to interactive -------------------------------------------------

JS_INTERACTIVE = """
() => {
  if (document.readyState !== 'complete') return false;
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
WEIGHT_PARTS = (("Vega runtime and chart code", "/_static/vega/"), ("fonts", (".woff2", ".woff", ".ttf")),
                ("theme stylesheets", ".css"), ("theme scripts", ".js"))
CHART_CALL = re.compile(r"<script>window\.db2bookEmbed\(.*?\);</script>", re.S)


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


def _site_missing() -> str | None:
    missing = [p for p in PAGES if not (SITE / f"{p}.html").exists()]
    if missing:
        return (f"the site is not built ({SITE} lacks {', '.join(missing)}): "
                "run `make book` (or `make bench`, which builds it first)")
    return None


def _load(page, url: str, timeout_ms: float = 60_000) -> float:
    """Navigate and wait until the page is interactive; returns ms since navigation start."""
    page.goto(url, wait_until="commit", timeout=timeout_ms)
    handle = page.wait_for_function(JS_INTERACTIVE, polling="raf", timeout=timeout_ms)
    tti = float(handle.json_value())
    page.wait_for_load_state("networkidle", timeout=timeout_ms)
    return tti


def _page_rows(name: str) -> tuple[str, str, str, str]:
    """Row names (cold weight, warm weight, time to interactive) and the warm row's goal."""
    goal_warm = f"<= {CHAPTER_WARM_GOAL_KB} KB" if name in CHAPTER_PAGES else NO_GOAL
    n_warm = f"page weight warm (after intro; goal on this row): {name}" if name in CHAPTER_PAGES \
        else f"page weight warm (after intro): {name}"
    return f"page weight cold: {name}", n_warm, f"time to interactive (cold): {name}", goal_warm


def bench_pages(rows: Rows, b, base: str) -> None:
    for name in PAGES:
        n_cold, n_warm, n_tti, goal_warm = _page_rows(name)
        url = f"{base}/{name}.html"
        # cold: a new context has an empty cache
        try:
            ctx = b.new_context(viewport={"width": 1280, "height": 900})
            try:
                page = ctx.new_page()
                counter = ByteCounter(ctx, page)
                tti = _load(page, url)
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
                    rows.measured(n_phone, _load(ctx.new_page(), url), "ms", note="no CPU or network throttling")
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
                _load(page, f"{base}/book/intro.html")
                page.wait_for_timeout(200)
                counter.reset()
                _load(page, url)
                rows.measured(n_warm, counter.bytes / KB, "KB", goal_warm, note=f"{counter.requests} responses")
            finally:
                ctx.close()
        except Exception as exc:  # noqa: BLE001
            rows.failed(n_warm, "KB", goal_warm, exc)


# --- 3. static slider -> redraw ------------------------------------------------------------

JS_SLIDER_INFO = """
() => {
  const chart = document.querySelector('.db2book-chart');
  const input = chart && chart.querySelector('.vega-bindings input[type=range]');
  if (!input) return null;
  return {chart: chart.id, figure: chart.dataset.figure, name: input.name,
          min: +input.min, max: +input.max, step: +input.step, value: +input.value};
}
"""

JS_SLIDER_MOVE = """
async (value) => {
  const chart = document.querySelector('.db2book-chart');
  const input = chart.querySelector('.vega-bindings input[type=range]');
  const svg = chart.querySelector('svg');
  let observer, timer, tMutation = null;
  const changed = new Promise((resolve) => {
    observer = new MutationObserver(() => { if (tMutation === null) tMutation = performance.now(); resolve(true); });
    observer.observe(svg, {subtree: true, childList: true, attributes: true, characterData: true});
    timer = setTimeout(() => resolve(false), 5000);
  });
  const t0 = performance.now();
  input.value = String(value);
  input.dispatchEvent(new Event('input', {bubbles: true}));
  input.dispatchEvent(new Event('change', {bubbles: true}));
  const ok = await changed;
  await new Promise((r) => requestAnimationFrame(() => r()));
  const t1 = performance.now();
  observer.disconnect();
  clearTimeout(timer);
  return {ok, frame: t1 - t0, mutation: tMutation === null ? null : tMutation - t0, value: +input.value};
}
"""


def bench_static_slider(rows: Rows, b, base: str) -> None:
    n_med = "static slider -> redraw, median of 20 (next frame)"
    n_max = "static slider -> redraw, max of 20 (next frame)"
    n_dom = "static slider -> SVG change, median of 20 (DOM only)"
    try:
        ctx = b.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = ctx.new_page()
            _load(page, f"{base}/{CHAPTER}.html")
            info = page.evaluate(JS_SLIDER_INFO)
            if not info:
                raise RuntimeError("no `.vega-bindings input[type=range]` in the first .db2book-chart")
            lo, hi, step, v0 = info["min"], info["max"], info["step"], info["value"]
            # two values on the step grid: the opening value and one step away (up, else down)
            k = round((v0 - lo) / step)
            a = round(lo + k * step, 10)
            other = a + step if a + step <= hi + 1e-9 else a - step
            values = [round(other, 10), a] * 10
            frames, muts = [], []
            for v in values:
                res = page.evaluate(JS_SLIDER_MOVE, v)
                if not res["ok"]:
                    raise RuntimeError(f"the chart's SVG did not change within 5 s after setting {info['name']}={v}")
                frames.append(res["frame"])
                muts.append(res["mutation"])
                page.wait_for_timeout(50)
            note = f"{info['figure']}: {info['name']} {other:g} <-> {a:g}"
            rows.measured(n_med, _median(frames), "ms", "<= 16 ms", note=note, samples=frames)
            rows.measured(n_max, max(frames), "ms", note=note)
            rows.measured(n_dom, _median(muts), "ms", note=note, samples=muts)
        finally:
            ctx.close()
    except Exception as exc:  # noqa: BLE001
        rows.failed(n_med, "ms", "<= 16 ms", exc)
        rows.failed([n_max, n_dom], "ms", NO_GOAL, exc)


def bench_site(rows: Rows) -> None:
    """Rows 2 and 3: they need the built site and a browser."""
    missing = _site_missing()
    if missing:
        print(f"bench: {missing}", file=sys.stderr)
        for name in PAGES:
            n_cold, n_warm, n_tti, goal_warm = _page_rows(name)
            rows.failed(n_cold, "KB", NO_GOAL, missing)
            rows.failed(n_tti, "ms", NO_GOAL, missing)
            rows.failed(n_warm, "KB", goal_warm, missing)
        rows.failed("static slider -> redraw, median of 20 (next frame)", "ms", "<= 16 ms", missing)
        return
    try:
        with serve() as base, browser() as b:
            bench_pages(rows, b, base)
            bench_static_slider(rows, b, base)
    except Exception as exc:  # noqa: BLE001 - no browser, for instance
        rows.failed("site: browser", "", NO_GOAL, exc)


# --- 4. Voila --------------------------------------------------------------------------------

JS_FIRST_SVG = """
() => {
  if (document.querySelector('.db2book-explorer svg')) return performance.now();
  // a notebook that raised shows its traceback instead (checked at most every 200 ms: it is long)
  const now = performance.now();
  if (now - (window.__benchChecked || 0) < 200) return false;
  window.__benchChecked = now;
  const text = document.body ? document.body.textContent : '';
  if (!text.includes('Traceback (most recent call last)')) return false;
  const found = [...text.matchAll(/([A-Za-z_][\\w.]*(?:Error|Exception)): ([^\\n]{0,300})/g)];
  return 'ERROR ' + (found.length ? found[found.length - 1][0] : 'the notebook raised an exception');
}
"""

JS_ARM = """
() => {
  const svgs = () => document.querySelectorAll('.db2book-explorer svg');
  const readout = () => (document.querySelector('.db2book-explorer .db2book-readout') || {}).outerHTML || '';
  const st = window.__bench = {t0: null, tChart: null, tReadout: null,
                               chart0: svgs()[0].outerHTML, readout0: readout()};
  if (!window.__benchKeys) {  // one listener for all moves: the time of the Enter that commits
    window.__benchKeys = true;
    document.addEventListener('keydown', (e) => {
      const b = window.__bench;
      if (e.key === 'Enter' && b && b.t0 === null) b.t0 = performance.now();
    }, {capture: true});
  }
  const root = document.querySelector('.db2book-explorer');
  const obs = new MutationObserver(() => {
    if (st.t0 === null) return;
    const now = performance.now();
    if (st.tChart === null && svgs()[0] && svgs()[0].outerHTML !== st.chart0) st.tChart = now;
    if (st.tReadout === null && readout() !== st.readout0) st.tReadout = now;
    if (st.tChart !== null && st.tReadout !== null) obs.disconnect();
  });
  obs.observe(root, {subtree: true, childList: true, characterData: true, attributes: true});
}
"""


def _voila_slider_move(page, readout, value: float, timeout_ms: float = 30_000) -> float:
    page.evaluate(JS_ARM)
    readout.click()
    page.keyboard.press("Control+A")
    page.keyboard.type(f"{value:g}")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.__bench.tChart !== null", polling="raf", timeout=timeout_ms)
    st = page.evaluate("() => window.__bench")
    # let the rest of the update (the other charts, the readout table) finish before the next move
    with contextlib.suppress(Exception):
        page.wait_for_function("() => window.__bench.tReadout !== null", polling=50, timeout=timeout_ms)
    page.wait_for_timeout(150)
    return st["tChart"] - st["t0"]


def bench_voila(rows: Rows, b) -> None:
    n_start = "voila: server start (until it answers)"
    n_first = "voila: first render, cold (page opened as the server answers)"
    n_hot = "voila: first render, pre-heated kernel (page opened 15 s after start)"
    n_med = "voila: slider -> first chart updated, median of 10"
    n_max = "voila: slider -> first chart updated, max of 10"
    n_warm = "voila: first slider move after the dashboard appears (not in the median)"
    from widgets.large_memory import figures as F

    notebook = Path("dashboards/large_memory.ipynb")
    start = time.perf_counter()
    try:
        with voila(notebook) as url:
            rows.measured(n_start, time.perf_counter() - start, "s")
            ctx = b.new_context(viewport={"width": 1280, "height": 900})
            try:
                page = ctx.new_page()
                try:
                    page.goto(url, wait_until="commit", timeout=120_000)
                    first = page.wait_for_function(JS_FIRST_SVG, polling="raf", timeout=120_000).json_value()
                    if isinstance(first, str):
                        raise RuntimeError(f"the dashboard notebook failed in Voila: {first[6:]}")
                    rows.measured(n_first, float(first) / 1000, "s")
                except Exception as exc:  # noqa: BLE001
                    rows.failed(n_first, "s", NO_GOAL, exc)
                    raise
                # wait until the whole dashboard is drawn (every chart and the readout table)
                page.wait_for_function(
                    "() => document.querySelector('.db2book-explorer .figure-sync_reads svg')"
                    " && document.querySelector('.db2book-explorer .db2book-readout')", timeout=120_000)
                page.wait_for_timeout(1000)
                p = F.SYNC_READS.params[0]  # the first slider drives the first chart
                readout = page.locator(".db2book-explorer .db2book-number input").first  # the slider's number box
                label = page.locator(".db2book-explorer .widget-slider").first.inner_text()
                if p.label not in label:
                    raise RuntimeError(f"first slider is {label!r}, expected {p.label!r}")
                # two values on the slider's grid (min + k * step; the front end snaps to it)
                a = round(p.min + round((p.default - p.min) / p.step) * p.step, 10)
                other = round(a + 10 * p.step if a + 10 * p.step <= p.max else a - 10 * p.step, 10)
                note = f"{p.name} {other:g} <-> {a:g}, typed into the slider's number box + Enter"
                # the first move right after the dashboard appears also waits for the kernel to finish
                # its start-up work; it is reported on its own, outside the steady-state median
                warm = _voila_slider_move(page, readout, a + 5 * p.step if a + 5 * p.step <= p.max else a - 5 * p.step)
                rows.measured(n_warm, warm, "ms", note="1 s after the whole dashboard is drawn")
                times = [_voila_slider_move(page, readout, v) for v in [other, a] * 5]
                rows.measured(n_med, _median(times), "ms", "<= 150 ms", note=note, samples=times)
                rows.measured(n_max, max(times), "ms", note=note)
            finally:
                ctx.close()
            # `make voila` pre-heats a kernel per notebook (dashboards/jupyter-config/voila.json): a
            # class opening the dashboard after the server has warmed up gets that kernel
            time.sleep(max(0.0, 15 - (time.perf_counter() - start)))
            ctx = b.new_context(viewport={"width": 1280, "height": 900})
            try:
                page = ctx.new_page()
                page.goto(url, wait_until="commit", timeout=120_000)
                hot = page.wait_for_function(JS_FIRST_SVG, polling="raf", timeout=120_000).json_value()
                if isinstance(hot, str):
                    raise RuntimeError(f"the dashboard notebook failed in Voila: {hot[6:]}")
                rows.measured(n_hot, float(hot) / 1000, "s", "<= 3 s")
            finally:
                ctx.close()
    except Exception as exc:  # noqa: BLE001
        done = {r["name"] for r in rows.rows}
        if n_start not in done:
            rows.failed(n_start, "s", NO_GOAL, exc)
        if n_first not in done:
            rows.failed(n_first, "s", NO_GOAL, exc)
        if n_hot not in done:
            rows.failed(n_hot, "s", "<= 3 s", exc)
        if n_warm not in done:
            rows.failed(n_warm, "ms", NO_GOAL, exc)
        if n_med not in done:
            rows.failed(n_med, "ms", "<= 150 ms", exc)
            rows.failed(n_max, "ms", NO_GOAL, exc)


def bench_voila_rows(rows: Rows) -> None:
    try:
        with browser() as b:
            bench_voila(rows, b)
    except Exception as exc:  # noqa: BLE001
        rows.failed("voila: browser", "", NO_GOAL, exc)


# --- 4b. a class at once on one dashboard ---------------------------------------------------

#: how many students open the dashboard at once (DB2BOOK_BENCH_CLASS="5,10" for a quicker run)
CLASS_SIZES = tuple(int(n) for n in os.environ.get("DB2BOOK_BENCH_CLASS", "5,10,30").split(","))
#: the class that also opens the dashboard in real browsers (0: skip)
BROWSER_CLASS = int(os.environ.get("DB2BOOK_BENCH_BROWSER_CLASS", "10"))


def bench_class_load(rows: Rows) -> None:
    """Students open the large-memory dashboard at once on a server started as ``make voila CLASS=n``
    does; then half of them type a value of their own into the first box at once.

    The students are websocket clients that ask the server exactly what Voila's front end asks (the page,
    the kernel's channels, every widget's state, an update): the server's work, as when every student
    brings a laptop. One class also opens it in headless Chromium, whose pages then run on the
    server's own cores as well.
    """
    from tools.classload import class_load
    from widgets.large_memory import figures as F

    p = F.SYNC_READS.params[0]

    def value_for(i: int) -> str:
        k = (i // 2 + 1) * 2
        return f"{p.default + k * p.step if p.default + k * p.step <= p.max else p.default - k * p.step:g}"

    runs = [(n, "ws") for n in CLASS_SIZES] + ([(BROWSER_CLASS, "browser")] if BROWSER_CLASS else [])
    for n, clients in runs:
        who = f"class of {n}" + (" in Chromium" if clients == "browser" else "")
        names = [f"{who}: {what}" for what in ("students served", "first render, median", "first render, p95",
                                               "slider update, median",
                                               "memory per student session (kernel PSS, median)")]
        load = _loadavg()
        try:
            run = class_load(ROOT / "dashboards" / "large_memory.ipynb", n, value_for, clients=clients)
        except Exception as exc:  # noqa: BLE001
            rows.failed(names, "", NO_GOAL, exc)
            continue
        s = run.summary()
        note = (f"pool of {n + 2} pre-heated kernels (classroom/voila_pool.py), shared SVG cache and chart engine; "
                f"{'websocket' if clients == 'ws' else 'headless Chromium'} students; isolated={s['isolated']}; "
                f"pool warm {s['pool_warm_s']:.0f} s after start; 1-min load {load} -> {_loadavg()}"
                + (f"; {'; '.join(s['failures'])[:300]}" if s["failures"] else ""))
        rows.measured(names[0], s["served"], "students", f">= {n}", note=note)
        rows.measured(names[1], s["first_render_median_s"], "s", samples=run.first_render_s)
        rows.measured(names[2], s["first_render_p95_s"], "s", "<= 10 s",
                      note=None if clients == "ws" else "the browsers' own work shares the server's 2 cores")
        rows.measured(names[3], s["update_median_s"], "s", "<= 1 s", note="half the class types at once, each "
                      "a value of their own (every chart is drawn afresh)", samples=run.update_s)
        if s.get("update_cpu_s") is not None:
            rows.measured(f"{who}: server CPU per slider update", s["update_cpu_s"] * 1000, "ms",
                          note="CPU of Voila, the kernels and the chart engine while half the class updates, per "
                               "update: the work behind an update, which the machine's other load does not change")
        if run.update_cached_s:
            rows.measured(f"{who}: slider update to a setting another student drew, median",
                          s["update_cached_median_s"], "s", "<= 1 s", samples=run.update_cached_s,
                          note="the other half types the value its neighbour chose, at once (the chart cache)")
        if s["mb_per_session"] is None:  # the class was not all served: memory was not measured
            rows.measured(names[4], None, "MB", "<= 150 MB")
            continue
        share = (s["server_pss_mb"] + s["helpers_pss_mb"]) / n
        rows.measured(names[4], s["mb_per_session"], "MB", "<= 150 MB",
                      note=f"RSS {s['rss_mb_per_session']:.0f} MB (counts shared libraries in full); "
                           f"plus per student {share:.0f} MB of the Voila server ({s['server_pss_mb']:.0f} MB) and "
                           f"chart engine ({s['helpers_pss_mb']:.0f} MB); {s['kernels_running']} kernels running "
                           f"(the class's and the spares)")


# --- 4c. what a student's browser builds ----------------------------------------------------

#: Counts the widget models a dashboard sends the browser at its first render (each one a view to build).
_COUNT_MODELS = """
import collections, importlib, json, sys
import ipywidgets.widgets.widget as ww
before = set(ww._instances)
importlib.import_module(f"widgets.{sys.argv[1]}.explorer").dashboard()
made = [ww._instances[k] for k in set(ww._instances) - before]
kinds = collections.Counter(type(x).__name__ for x in made)
print(json.dumps({"models": len(made), "layouts_and_styles": sum(n for k, n in kinds.items()
                                                                 if k == "Layout" or k.endswith("Style"))}))
"""


def bench_dashboard_widgets(rows: Rows) -> None:
    """Widget models each chapter's dashboard holds at its first render, each in a fresh kernel-like process
    (the browser builds a view for each; a class of laptops opening the page pays for every one)."""
    from widgets.studies import STUDIES

    for s in STUDIES:
        name = f"dashboard {s.slug}: widget models at first render"
        try:
            out = subprocess.run([sys.executable, "-c", _COUNT_MODELS, s.slug], cwd=ROOT, capture_output=True,
                                 text=True, timeout=300, check=True)
            got = json.loads(out.stdout.strip().splitlines()[-1])
        except Exception as exc:  # noqa: BLE001
            rows.failed(name, "models", NO_GOAL, exc)
            continue
        rows.measured(name, got["models"], "models",
                      note=f"{got['layouts_and_styles']} of them layouts and styles (shared where alike); "
                           "a tab's controls are made when it is opened")


# --- 5. model evaluation time ---------------------------------------------------------------


def _time_calls(fn, n: int, warmup: int) -> list[float]:
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def bench_model(rows: Rows) -> None:
    import numpy as np

    try:
        from widgets.large_memory import calibration
        sizes = np.geomspace(16, 2048, 30)
        rows.measured("model: predict_single (whole chain, 30 sizes), median of 200",
                      _median(_time_calls(lambda: calibration.predict_single(sizes), 200, 5)), "ms", "<= 5 ms")
    except Exception as exc:  # noqa: BLE001
        rows.failed("model: predict_single (whole chain, 30 sizes), median of 200", "ms", "<= 5 ms", exc)
    try:
        from dataclasses import replace

        from widgets.large_memory import calibration
        from widgets.large_memory.calibration import CALIBRATED as CAL
        sizes = np.geomspace(16, 2048, 30)
        skews = iter(np.round(np.linspace(0.55, 0.95, 40) + 0.0001234, 6))  # never the cached skews
        times = []
        for s in skews:
            cal = replace(CAL, workload=replace(CAL.workload, skew=float(s)))
            t = time.perf_counter()
            calibration.predict_single(sizes, "zEC12", cal)
            times.append((time.perf_counter() - t) * 1000)
        rows.measured("model: predict_single at a new skew (Che table not cached), median of 40",
                      _median(times), "ms")
    except Exception as exc:  # noqa: BLE001
        rows.failed("model: predict_single at a new skew (Che table not cached), median of 40", "ms", NO_GOAL, exc)
    try:
        from widgets.large_memory import model
        from widgets.large_memory.calibration import CALIBRATED as CAL
        lbp = np.geomspace(8, 1024, 30)
        gbp = np.full_like(lbp, 64.0)
        rows.measured("model: sync_reads_per_ds_data_sharing (30 sizes), median of 200",
                      _median(_time_calls(
                          lambda: model.sync_reads_per_ds_data_sharing(lbp, gbp, CAL.workload, CAL.group), 200, 5)),
                      "ms", "<= 5 ms")
    except Exception as exc:  # noqa: BLE001
        rows.failed("model: sync_reads_per_ds_data_sharing (30 sizes), median of 200", "ms", "<= 5 ms", exc)
    try:
        from widgets.live import render_svg
        from widgets.large_memory import figures as F
        rows.measured("live chart redraw in the kernel: render_svg(SYNC_READS), median of 20",
                      _median(_time_calls(lambda: render_svg(F.SYNC_READS), 20, 2)), "ms")
    except Exception as exc:  # noqa: BLE001
        rows.failed("live chart redraw in the kernel: render_svg(SYNC_READS), median of 20", "ms", NO_GOAL, exc)


# --- 6. chart data weight -------------------------------------------------------------------


def bench_chart_weight(rows: Rows) -> None:
    try:
        from widgets.figure import static_chart
        figs = list(all_figures().values())
    except Exception as exc:  # noqa: BLE001
        rows.failed("static chart spec: (figures)", "KB", "< 200 KB", exc)
        return
    for fig in figs:
        name = f"static chart spec: {fig.key}"
        try:
            size = len(json.dumps(static_chart(fig).to_dict()))
            rows.measured(name, size / KB, "KB", "< 200 KB")
        except Exception as exc:  # noqa: BLE001
            rows.failed(name, "KB", "< 200 KB", exc)


# --- 7. the Buffer Pool Tool: Mattson curve, simulator and libcachesim on one 1M-getpage trace ----


def bench_simulator(rows: Rows) -> None:
    try:
        sys.path.insert(0, str(ROOT / "bench"))
        import simulator_bench

        result = simulator_bench.run()
    except Exception as exc:  # noqa: BLE001
        rows.failed("bp tool: (section)", "", NO_GOAL, exc)
        return
    rows.rows.extend(result["rows"])


# --- the table ------------------------------------------------------------------------------


def _fmt(value) -> str:
    if value is None:
        return "—"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def table(report: dict) -> str:
    rows = report["rows"]
    heads = ("measurement", "value", "unit", "goal", "met")
    body = []
    for r in rows:
        met = {True: "yes", False: "NO", None: "—"}[r["met"]]
        goal = "—" if r["goal"] == NO_GOAL else r["goal"]
        body.append((r["name"], _fmt(r["value"]), r["unit"], goal, met))
    widths = [max(len(h), *(len(b[i]) for b in body)) if body else len(h) for i, h in enumerate(heads)]
    align = ("<", ">", "<", "<", "<")
    line = lambda cells: "  ".join(f"{c:{a}{w}}" for c, a, w in zip(cells, align, widths)).rstrip()  # noqa: E731
    out = [line(heads), line(["-" * w for w in widths])]
    out += [line(b) for b in body]
    errors = [r for r in rows if r.get("error")]
    if errors:
        out.append("")
        out.append("errors:")
        previous = None
        for r in errors:
            out.append(f"  {r['name']}: {'(the same)' if r['error'] == previous else r['error']}")
            previous = r["error"]
    g = report["summary"]
    load = report["machine"]["load_average_1min"]
    busy = [x for x in (load["start"], load["end"]) if x is not None and x > 0.5 * (report["machine"]["cpus"] or 1)]
    if busy:
        out.append("")
        out.append(f"warning: the machine was busy (1-min load average {load['start']} at the start, "
                   f"{load['end']} at the end, {report['machine']['cpus']} CPUs): timings are inflated")
    out.append("")
    out.append(f"{g['goals_met']} of {g['goals']} goals met"
               + (f" ({g['goals_unmeasured']} not measured)" if g["goals_unmeasured"] else "")
               + f"; JSON in {os.path.relpath(RESULTS, Path.cwd())}")
    return "\n".join(out)


def _loadavg() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


SECTIONS = {
    "build": bench_build,
    "site": bench_site,
    "voila": bench_voila_rows,
    "classload": bench_class_load,
    "widgets": bench_dashboard_widgets,
    "model": bench_model,
    "weight": bench_chart_weight,
    "simulator": bench_simulator,
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print the JSON to stdout instead of the table")
    ap.add_argument("--only", action="append", choices=sorted(SECTIONS),
                    help="run only these sections (repeatable; default: all)")
    args = ap.parse_args(argv)
    os.chdir(ROOT)
    rows = Rows()
    load_start = _loadavg()
    for key, fn in SECTIONS.items():
        if args.only and key not in args.only:
            continue
        print(f"bench: {key} ...", file=sys.stderr, flush=True)
        try:
            fn(rows)
        except Exception as exc:  # noqa: BLE001 - the last safety net
            traceback.print_exc(file=sys.stderr)
            rows.failed(f"{key}: (section)", "", NO_GOAL, exc)
    with_goal = [r for r in rows.rows if r["goal"] != NO_GOAL]
    report = {
        "generated": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "platform": platform.platform(),
                    "load_average_1min": {"start": load_start, "end": _loadavg()}},
        "units": "1 KB = 1000 bytes; ms and s are wall-clock",
        "rows": rows.rows,
        "summary": {"goals": len(with_goal), "goals_met": sum(r["met"] is True for r in with_goal),
                    "goals_missed": sum(r["met"] is False for r in with_goal),
                    "goals_unmeasured": sum(r["met"] is None for r in with_goal)},
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2) if args.json else table(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
