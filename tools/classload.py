"""A class opening one Voila dashboard at once: first render, slider updates, memory, and isolation.

Used by ``make bench`` (5, 10 and 30 students) and by ``tests/test_classload.py`` (10 students, correctness
and isolation only). One Voila server serves the dashboard as ``make voila`` does for a class: kernels
pre-heated in a pool sized for the class, and one SVG cache that every kernel shares. Each student is
a separate browser context (own cookies, own kernel). Everything started here is stopped by PID.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from tools.procs import cmdline, cpu_s, descendants, pss_mb, rss_mb, stop
from tools.site import CHROMIUM_ARGS, ROOT, free_port

CHART = ("() => { const e = document.querySelector('.db2book-chart-live svg');"
         " return e ? e.outerHTML : ''; }")


def kernels(pid: int) -> list[int]:
    """The kernel processes below a Voila server."""
    return [k for k in descendants(pid) if "ipykernel" in cmdline(k)]


@contextlib.contextmanager
def class_server(notebook: Path, pool: int, timeout: float = 900.0, extra_args: tuple[str, ...] = ()):
    """Voila for one dashboard as ``make voila CLASS=pool`` starts it (``classroom.voila_pool``: ``pool``
    pre-heated kernels, one chart engine, refills paced); yields (url, pid) once the pool is warm."""
    port = free_port()
    cache = tempfile.mkdtemp(prefix="db2book-svg-")
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(ROOT / "dashboards" / "jupyter-config"),
               PYDEVD_DISABLE_FILE_VALIDATION="1", DB2BOOK_SVG_CACHE=cache, PYTHONPATH=str(ROOT))
    env.pop("DB2BOOK_SVG_SERVER", None)
    cmd = [str(Path(sys.executable).parent / "voila"), str(notebook), "--no-browser", f"--port={port}",
           "--Voila.ip=127.0.0.1", f"--VoilaConfiguration.default_pool_size={pool}",
           "--VoilaConfiguration.multi_kernel_manager_class=classroom.voila_pool.ClassKernelManager", *extra_args]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    url = f"http://127.0.0.1:{port}/"
    started: set[int] = set()
    try:
        deadline = time.monotonic() + timeout
        while True:  # up, and every pooled kernel started
            assert proc.poll() is None, "voila exited"
            # knock on the port, not on the page: every request for the page takes a kernel from the pool
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=5):
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
    update_cached_s: list[float] = field(default_factory=list)  # to a setting another student drew first
    #: CPU seconds the server's processes (Voila, kernels, chart engine) used per fresh update: the work behind
    #: a student's update, which unlike its latency does not depend on what else the machine is running
    update_cpu_s: float | None = None
    kernel_mb: list[float] = field(default_factory=list)
    kernel_pss_mb: list[float] = field(default_factory=list)
    server_mb: float = 0.0
    server_pss_mb: float = 0.0
    helpers_pss_mb: float = 0.0  # the server's other processes (the shared chart engine)
    pool_kernels: int = 0
    kernel_ids: list[str] = field(default_factory=list)  # the kernel each student was served by
    pool_warm_s: float = 0.0  # from starting the server to a warm pool
    isolated: bool = True
    failures: list[str] = field(default_factory=list)

    @staticmethod
    def p95(xs: list[float]) -> float:
        xs = sorted(xs)
        return xs[min(len(xs) - 1, max(0, int(round(0.95 * len(xs) + 0.5)) - 1))]

    def record(self, results: list, into: list[float], what: str) -> None:
        """Times go to ``into``; an exception becomes a failure named by ``what``."""
        for r in results:
            if isinstance(r, BaseException):
                self.failures.append(f"{what}: {type(r).__name__}: {str(r)[:200]}")
            else:
                into.append(r)

    def summary(self) -> dict:
        return {"students": self.students, "served": len(self.first_render_s),
                "first_render_median_s": statistics.median(self.first_render_s) if self.first_render_s else None,
                "first_render_p95_s": self.p95(self.first_render_s) if self.first_render_s else None,
                "update_median_s": statistics.median(self.update_s) if self.update_s else None,
                "update_cached_median_s": statistics.median(self.update_cached_s) if self.update_cached_s else None,
                "update_cpu_s": self.update_cpu_s,
                "mb_per_session": statistics.median(self.kernel_pss_mb) if self.kernel_pss_mb else None,
                "rss_mb_per_session": statistics.median(self.kernel_mb) if self.kernel_mb else None,
                "server_mb": self.server_mb, "server_pss_mb": self.server_pss_mb,
                "helpers_pss_mb": self.helpers_pss_mb, "kernels_running": self.pool_kernels,
                "pool_warm_s": self.pool_warm_s, "isolated": self.isolated, "failures": self.failures}


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
            run.record(results, run.first_render_s, "first render")
            if run.failures:
                return run
            await asyncio.sleep(1)
            kids = [re.search(r'"kernelId": "([^"]+)"', await p.content()) for p in pages]
            served = [m.group(1) for m in kids if m]
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
            run.record(times, run.update_s, "update")
            await asyncio.sleep(2)
            _memory(run, server_pid, served)
            after = [await p.evaluate(CHART) for p in pages]
            _check_isolation(run, before, after, movers, [value_for(i) for i in movers])
        finally:
            await browser.close()
    return run


def class_pool(students: int) -> int:
    """The pool ``make voila CLASS=students`` starts: one kernel per student and two spare (the manager's
    ``low_water``), so the whole class can arrive without setting off a refill."""
    return students + 2 if students > 1 else 1


def kernel_pid(server_pid: int, kernel_id: str) -> int | None:
    """The process of one kernel (its command line names its connection file, ``kernel-<id>.json``)."""
    return next((k for k in kernels(server_pid) if f"kernel-{kernel_id}.json" in cmdline(k)), None)


def _memory(run: ClassRun, server_pid: int, kernel_ids: list[str]) -> None:
    """Each student's kernel (PSS and RSS) and the server, once the class has moved its sliders."""
    run.kernel_ids = list(kernel_ids)
    pids = [p for p in (kernel_pid(server_pid, k) for k in kernel_ids) if p]
    run.kernel_pss_mb = [pss_mb(p) for p in pids]
    run.kernel_mb = [rss_mb(p) for p in pids]
    run.server_mb, run.server_pss_mb = rss_mb(server_pid), pss_mb(server_pid)
    every_kernel = kernels(server_pid)
    run.pool_kernels = len(every_kernel)
    run.helpers_pss_mb = sum(pss_mb(p) for p in descendants(server_pid) if p not in every_kernel)


# --- students as websocket clients: what a browser asks of the server, without the browser -------------

def _message(msg_type: str, content: dict, session: str, metadata: dict | None = None) -> str:
    return json.dumps({"header": {"msg_id": uuid.uuid4().hex, "username": "student", "session": session,
                                  "msg_type": msg_type, "version": "5.3", "date": ""},
                       "parent_header": {}, "metadata": metadata or {}, "content": content,
                       "channel": "shell", "buffers": []})


class WsStudent:
    """One student as the Voila front end talks to the server: load the page (the pre-rendered notebook),
    connect to its kernel, ask for every widget's state (as the widget manager does), and type into the
    first number box. ``chart`` is the first live chart's SVG as this student's kernel last sent it."""

    def __init__(self, url: str):
        self.url, self.session = url, uuid.uuid4().hex
        self.kernel_id = self.chart_id = self.box_id = ""
        self.chart = ""

    async def open(self, timeout_s: float) -> float:
        """Seconds from asking for the page to holding the first chart's SVG."""
        from tornado.httpclient import AsyncHTTPClient, HTTPRequest
        from tornado.websocket import websocket_connect

        t0 = time.perf_counter()
        reply = await AsyncHTTPClient().fetch(self.url, request_timeout=timeout_s, raise_error=False)
        page = reply.body.decode("utf-8", "replace") if reply.body else ""
        found = re.search(r'"kernelId": "([^"]+)"', page)
        if reply.code != 200 or not found:  # say what the server answered instead of a page with a kernel
            text = " ".join(re.sub(r"<[^>]+>", " ", page).split())[:300]
            raise AssertionError(f"the page came back as HTTP {reply.code} with no kernel: {text!r}")
        self.kernel_id = found.group(1)
        cookie = "; ".join(c.split(";")[0] for c in reply.headers.get_list("Set-Cookie"))
        ws_url = (self.url.replace("http://", "ws://")
                  + f"api/kernels/{self.kernel_id}/channels?session_id={self.session}")
        self.ws = await websocket_connect(HTTPRequest(ws_url, headers={"Cookie": cookie},
                                                      request_timeout=timeout_s))
        control = uuid.uuid4().hex
        await self.ws.write_message(_message("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control",
                                                           "data": {}}, self.session, {"version": "1.0.0"}))
        await self.ws.write_message(_message("comm_msg", {"comm_id": control, "data": {"method": "request_states"}},
                                             self.session))
        while True:
            msg = await self._read(t0 + timeout_s)
            data = msg["content"].get("data") or {}
            if msg["msg_type"] == "comm_msg" and data.get("method") == "update_states":
                break
        states = data["states"]
        charts = [k for k, v in states.items() if "db2book-chart-live" in v["state"].get("_dom_classes", [])
                  and "<svg" in v["state"].get("value", "")]
        numbers = [v for v in states.values() if "db2book-number" in v["state"].get("_dom_classes", [])]
        assert charts and numbers, "the dashboard shows no live chart or number box"
        self.chart_id, self.chart = charts[0], states[charts[0]]["state"]["value"]
        self.box_id = numbers[0]["state"]["children"][0].removeprefix("IPY_MODEL_")
        self.first_render_s = time.perf_counter() - t0
        return self.first_render_s

    async def _read(self, deadline: float) -> dict:
        raw = await asyncio.wait_for(self.ws.read_message(), max(0.1, deadline - time.perf_counter()))
        assert raw is not None, "the kernel's websocket closed"
        msg = json.loads(raw)
        data = msg.get("content", {}).get("data") or {}
        if (msg.get("msg_type") == "comm_msg" and msg["content"].get("comm_id") == self.chart_id
                and data.get("method") in ("update", "echo_update") and "value" in data.get("state", {})):
            self.chart = data["state"]["value"]
        return msg

    async def type_value(self, text: str, timeout_s: float) -> float:
        """Type ``text`` into the first number box; seconds until this student's chart is redrawn."""
        before = self.chart
        t0 = time.perf_counter()
        await self.ws.write_message(_message("comm_msg", {"comm_id": self.box_id, "data": {
            "method": "update", "state": {"value": text}, "buffer_paths": []}}, self.session))
        while self.chart == before:
            await self._read(t0 + timeout_s)
        return time.perf_counter() - t0

    async def listen(self, seconds: float) -> None:
        """Read what the kernel sends for ``seconds`` (a chart update would be counted)."""
        end = time.perf_counter() + seconds
        with contextlib.suppress(asyncio.TimeoutError):
            while time.perf_counter() < end:
                await self._read(end)

    def close(self) -> None:
        if getattr(self, "ws", None) is not None:
            self.ws.close()


async def _class_ws(url: str, server_pid: int, students: int, value_for, timeout_ms: float) -> ClassRun:
    from tornado.httpclient import AsyncHTTPClient

    run = ClassRun(students)
    timeout_s = timeout_ms / 1000
    AsyncHTTPClient.configure(None, max_clients=max(10, students))  # its default queues all but 10 requests
    class_ = [WsStudent(url) for _ in range(students)]
    try:
        results = await asyncio.gather(*(s.open(timeout_s) for s in class_), return_exceptions=True)
        run.record(results, run.first_render_s, "first render")
        if run.failures:
            return run
        await asyncio.gather(*(s.listen(1) for s in class_))
        before = [s.chart for s in class_]
        movers = list(range(0, students, 2))
        cpu_before = cpu_s([server_pid, *descendants(server_pid)])
        times = await asyncio.gather(*(class_[i].type_value(value_for(i), timeout_s) for i in movers),
                                     return_exceptions=True)
        run.record(times, run.update_s, "update")
        await asyncio.gather(*(s.listen(2) for s in class_))
        run.update_cpu_s = (cpu_s([server_pid, *descendants(server_pid)]) - cpu_before) / len(movers)
        _memory(run, server_pid, [s.kernel_id for s in class_])
        _check_isolation(run, before, [s.chart for s in class_], movers, [value_for(i) for i in movers])
        # then the rest of the class types the value their neighbour chose: a chart already drawn (the cache)
        followers = [i for i in range(1, students, 2)]
        times = await asyncio.gather(*(class_[i].type_value(value_for(i - 1), timeout_s) for i in followers),
                                     return_exceptions=True)
        run.record(times, run.update_cached_s, "update to a drawn setting")
        for i in followers:
            if class_[i].chart != class_[i - 1].chart:
                run.isolated = False
                run.failures.append(f"student {i} typed {value_for(i - 1)} as student {i - 1} did, "
                                    "but sees another chart")
    finally:
        for s in class_:
            s.close()
    return run


def _check_isolation(run: ClassRun, before: list[str], after: list[str], movers: list[int], values: list[str]) -> None:
    """Only the students who moved a slider see a new chart, and students who typed different values
    see different charts (a shared cache never hands one student another's picture)."""
    for i, (b, a) in enumerate(zip(before, after)):
        if (a != b) != (i in movers):
            run.isolated = False
            run.failures.append(f"student {i}: chart {'changed' if a != b else 'did not change'}")
    drawn: dict[str, str] = {}
    for i, v in zip(movers, values):
        if drawn.setdefault(after[i], v) != v:
            run.isolated = False
            run.failures.append(f"student {i} typed {v} but sees the chart drawn for {drawn[after[i]]}")


def class_load(notebook: Path, students: int, value_for, pool: int | None = None,
               timeout_ms: float = 600_000, clients: str = "browser",
               extra_args: tuple[str, ...] = ()) -> ClassRun:
    """Open ``notebook`` for ``students`` at once; half of them then move the first slider (``value_for(i)``).

    ``clients="browser"``: each student is a headless Chromium context (the whole door, but all of them
    share this machine's two cores with the server); ``clients="ws"``: each student is a websocket client
    that asks the server exactly what the Voila front end asks (the server's cost alone, as when every
    student brings a laptop).
    """
    t0 = time.perf_counter()
    with class_server(notebook, class_pool(students) if pool is None else pool, extra_args=extra_args) as (url, pid):
        warm_s = time.perf_counter() - t0
        run = asyncio.run((_class_ws if clients == "ws" else _class)(url, pid, students, value_for, timeout_ms))
        run.pool_warm_s = warm_s
        return run
