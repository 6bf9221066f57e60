"""Shared by the browser tests and the benchmark: serve the built site, drive Chromium, run Voila.

* :func:`serve` serves a folder on 127.0.0.1 (a free port) from a background thread.
* :func:`browser` launches Debian's Chromium through Playwright (never Playwright's download).
* :func:`clone_files` copies what a clone of the repository holds (a fresh clone, for tests).
* :class:`RequestLog` records every request a page makes, to prove none leaves the loopback.
* :func:`server` runs a server process until it answers, and stops it by PID; :func:`voila` starts a
  Voila server on loopback with it.
* :data:`JS_MODEL_MARKS` reads the model lines a chart is drawing from its Vega scenegraph.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.server import ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlparse

from tools.serve import handler

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "_build" / "html"
CHROMIUM = os.environ.get("DB2BOOK_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
#: axe-core, installed from npm by `make node` (package-lock.json pins it).
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"

#: JavaScript: for every chart on the page, the data items of its "model" marks.
JS_MODEL_MARKS = """
() => {
  const out = {};
  for (const [id, view] of Object.entries(window.db2bookViews || {})) {
    const items = [];
    const walk = (node) => {
      if (!node) return;
      if (node.marktype && node.name === 'model_marks') {
        for (const it of node.items || []) { if (it.datum) items.push(it.datum); }
      }
      for (const child of (node.items || [])) { if (child && child.items) walk(child); }
    };
    walk(view.scenegraph().root);
    out[id] = items.map(d => ({x: d.x, series: d.series, y: d.y}));
  }
  return out;
}
"""


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        """A page left before a response was sent (a reader clicking on) is not an error of the site."""
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serve(directory: Path = SITE, compressed: bool = True):
    """Serve ``directory`` on a free loopback port as ``make serve`` does (the build's compressed copies of
    text files, :mod:`tools.serve`; not with ``compressed=False``); yields the base URL."""
    server = _QuietServer(("127.0.0.1", 0), handler(directory, compressed=compressed, quiet=True))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def browser():
    """A headless Debian Chromium driven by Playwright."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} not found: run `make chromium` (apt-get install chromium)")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


class RequestLog:
    """Every request, response size and console error of one page."""

    def __init__(self, page):
        self.urls: list[str] = []
        self.failed: list[str] = []
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        self.bytes = 0
        page.on("request", lambda r: self.urls.append(r.url))
        page.on("requestfailed", lambda r: self.failed.append(f"{r.url} ({r.failure})"))
        page.on("console", lambda m: m.type == "error" and self.console_errors.append(m.text))
        page.on("pageerror", lambda e: self.page_errors.append(str(e)))
        page.on("response", self._on_response)

    def _on_response(self, response):
        try:
            self.bytes += len(response.body())
        except Exception:  # redirects and aborted bodies have none
            pass

    def outside(self) -> list[str]:
        """Requests whose host is not the loopback (data: and blob: URLs stay in the page)."""
        bad = []
        for url in self.urls:
            parsed = urlparse(url)
            if parsed.scheme in ("data", "blob", "about"):
                continue
            if parsed.hostname not in LOOPBACK:
                bad.append(url)
        return bad

    def errors(self) -> list[str]:
        """Every console and page error (none is allowed)."""
        return self.console_errors + self.page_errors


#: JavaScript: true when the page is parsed (every chart is in it) and every chart has drawn. A chart draws when
#: it comes near the screen (``page.js``); this asks for every chart at once, as a reader's printing does.
JS_CHARTS_DRAWN = ("() => document.readyState !== 'loading' && (window.db2bookDrawAll && window.db2bookDrawAll(), "
                   "[...document.querySelectorAll('.db2book-chart')].every(e => e.dataset.rendered === 'true'))")


def open_page(b, url: str, timeout_ms: float = 30_000, **context):
    """Open ``url`` in a fresh browser context (``context``: viewport, touch...) and wait for its charts.

    Returns ``(context, page, log)``; close the context when done.
    """
    ctx = b.new_context(**context)
    page = ctx.new_page()
    log = RequestLog(page)
    page.goto(url, wait_until="networkidle")
    page.wait_for_function(JS_CHARTS_DRAWN, timeout=timeout_ms)
    return ctx, page, log


def clone_files(dest: Path) -> None:
    """Copy what a clone of the repository holds (tracked and new, unignored files) into ``dest``."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                           capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, files):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def server(cmd: list[str], *, cwd: Path, env: dict[str, str], ready_url: str, log: Path | None = None,
           timeout: float = 60.0):
    """Run a server process (its output to ``log``, or a temporary file) until ``ready_url`` answers.

    Yields the process; stops its whole process group (by PID) afterwards.
    """
    with contextlib.ExitStack() as stack:
        if log is None:
            log = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="db2book-server-"))) / "server.log"
        with open(log, "wb") as out:
            proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                    start_new_session=True)
        try:
            deadline = time.time() + timeout
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"{Path(cmd[0]).name} exited: {log.read_text(errors='replace')[-2000:]}")
                try:
                    urllib.request.urlopen(ready_url, timeout=2)
                    break
                except Exception as exc:  # not up yet (a 404 or 403 is an answer: it is up)
                    if getattr(exc, "code", None):
                        break
                    if time.time() > deadline:
                        raise RuntimeError(f"{Path(cmd[0]).name} did not answer {ready_url} in {timeout} s") from exc
                    time.sleep(0.25)
            yield proc
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


@contextlib.contextmanager
def voila(notebook: Path, timeout: float = 60.0):
    """Start Voila on a loopback port for ``notebook``; yields the URL of the rendered page."""
    port = free_port()
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(ROOT / "dashboards" / "jupyter-config"),
               PYDEVD_DISABLE_FILE_VALIDATION="1")
    cmd = [str(Path(sys.executable).parent / "voila"), str(notebook), "--no-browser", f"--port={port}",
           "--Voila.ip=127.0.0.1", "--Voila.open_browser=False"]
    url = f"http://127.0.0.1:{port}/"
    with server(cmd, cwd=ROOT, env=env, ready_url=url + "api", timeout=timeout):
        yield url
