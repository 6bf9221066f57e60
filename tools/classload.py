"""A class opening one Voila dashboard at once: first render, slider updates, memory, and isolation.

Used by ``make bench`` (5, 10 and 30 students) and by ``tests/test_classload.py`` (10 students, correctness
and isolation only). One Voila server serves the dashboard as ``make voila`` does for a class: kernels
pre-heated in a pool sized for the class, and one SVG cache that every kernel shares. Each student is
a separate browser context (own cookies, own kernel). Everything started here is stopped by PID.
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from tools.procs import cmdline, cpu_s, descendants, rss_mb, stop
from tools.site import CHROMIUM_ARGS, ROOT, free_port

CHART = ("() => { const e = document.querySelector('.db2book-chart-live svg');"
         " return e ? e.outerHTML : ''; }")


def kernels(pid: int) -> list[int]:
    """The kernel processes below a Voila server."""
    return [k for k in descendants(pid) if "ipykernel" in cmdline(k)]


@contextlib.contextmanager
def class_server(notebook: Path, pool: int, timeout: float = 900.0):
    """Voila for one dashboard with ``pool`` pre-heated kernels; yields (url, pid) once the pool is warm."""
    port = free_port()
    cache = tempfile.mkdtemp(prefix="db2book-svg-")
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(ROOT / "dashboards" / "jupyter-config"),
               PYDEVD_DISABLE_FILE_VALIDATION="1", DB2BOOK_SVG_CACHE=cache)
    cmd = [str(Path(sys.executable).parent / "voila"), str(notebook), "--no-browser", f"--port={port}",
           "--Voila.ip=127.0.0.1", f"--VoilaConfiguration.default_pool_size={pool}"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    url = f"http://127.0.0.1:{port}/"
    started: set[int] = set()
    try:
        deadline = time.monotonic() + timeout
        while True:  # up, and every pooled kernel started
            assert proc.poll() is None, "voila exited"
            with contextlib.suppress(Exception):
                urllib.request.urlopen(url, timeout=5)
                if len(kernels(proc.pid)) >= pool:
                    break
            assert time.monotonic() < deadline, f"voila's pool of {pool} did not start in {timeout} s"
            time.sleep(1)
        # warm: the pooled kernels have run the notebook once the server's CPU use settles
        last = cpu_s([proc.pid, *descendants(proc.pid)])
        while time.monotonic() < deadline:
            time.sleep(3)
            now = cpu_s([proc.pid, *descendants(proc.pid)])
            if now - last < 0.3:
                break
            last = now
        started |= set(descendants(proc.pid))
        yield url, proc.pid
    finally:
        stop(proc, started)
        shutil.rmtree(cache, ignore_errors=True)


@dataclass
class ClassRun:
    students: int
    first_render_s: list[float] = field(default_factory=list)
    update_s: list[float] = field(default_factory=list)
    kernel_mb: list[float] = field(default_factory=list)
    server_mb: float = 0.0
    isolated: bool = True
    failures: list[str] = field(default_factory=list)

    @staticmethod
    def p95(xs: list[float]) -> float:
        xs = sorted(xs)
        return xs[min(len(xs) - 1, max(0, int(round(0.95 * len(xs) + 0.5)) - 1))]

    def summary(self) -> dict:
        return {"students": self.students, "served": len(self.first_render_s),
                "first_render_median_s": statistics.median(self.first_render_s) if self.first_render_s else None,
                "first_render_p95_s": self.p95(self.first_render_s) if self.first_render_s else None,
                "update_median_s": statistics.median(self.update_s) if self.update_s else None,
                "mb_per_session": (sum(self.kernel_mb) / len(self.kernel_mb)) if self.kernel_mb else None,
                "server_mb": self.server_mb, "isolated": self.isolated, "failures": self.failures}


async def _class(url: str, server_pid: int, students: int, value_for, timeout_ms: float) -> ClassRun:
    from playwright.async_api import async_playwright

    run = ClassRun(students)
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path="/usr/bin/chromium", args=list(CHROMIUM_ARGS))
        try:
            contexts = [await browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(students)]
            pages = [await c.new_page() for c in contexts]

            async def open_one(page) -> float:
                t0 = time.perf_counter()
                await page.goto(url, wait_until="commit", timeout=timeout_ms)
                await page.wait_for_selector(".db2book-chart-live svg", timeout=timeout_ms)
                return time.perf_counter() - t0

            results = await asyncio.gather(*(open_one(p) for p in pages), return_exceptions=True)
            for r in results:
                if isinstance(r, BaseException):
                    run.failures.append(f"first render: {type(r).__name__}: {str(r)[:200]}")
                else:
                    run.first_render_s.append(r)
            if run.failures:
                return run
            await asyncio.sleep(1)
            ks = kernels(server_pid)
            run.kernel_mb = [rss_mb(k) for k in ks]
            run.server_mb = rss_mb(server_pid)
            before = [await p.evaluate(CHART) for p in pages]

            async def move(i: int, page) -> float:
                box = page.locator(".db2book-explorer .db2book-number input").first
                await box.click()
                await page.keyboard.press("Control+A")
                await page.keyboard.type(value_for(i))
                t0 = time.perf_counter()
                await page.keyboard.press("Enter")
                await page.wait_for_function(f"(b) => ({CHART})() !== b", arg=before[i], timeout=timeout_ms)
                return time.perf_counter() - t0

            # half the class moves a slider at once; the other half must not see any change
            movers = list(range(0, students, 2))
            times = await asyncio.gather(*(move(i, pages[i]) for i in movers), return_exceptions=True)
            for t in times:
                if isinstance(t, BaseException):
                    run.failures.append(f"update: {type(t).__name__}: {str(t)[:200]}")
                else:
                    run.update_s.append(t)
            await asyncio.sleep(2)
            after = [await p.evaluate(CHART) for p in pages]
            for i in range(students):
                changed = after[i] != before[i]
                if changed != (i in movers):
                    run.isolated = False
                    run.failures.append(f"student {i}: chart {'changed' if changed else 'did not change'}")
        finally:
            await browser.close()
    return run


def class_load(notebook: Path, students: int, value_for, pool: int | None = None,
               timeout_ms: float = 600_000) -> ClassRun:
    """Open ``notebook`` for ``students`` at once; half of them then move the first slider (``value_for(i)``)."""
    with class_server(notebook, students if pool is None else pool) as (url, pid):
        return asyncio.run(_class(url, pid, students, value_for, timeout_ms))
