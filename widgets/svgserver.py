"""One chart engine for a whole class: a small local service that turns Vega-Lite specs into SVG.

Drawing a chart in a kernel starts ``vl-convert``'s JavaScript engine in that kernel, which then holds
about 65 MB for as long as the kernel lives. A class server (``make voila CLASS=30``) starts this
service once, with a worker per core, and its kernels send it their charts instead
(:func:`widgets.explorer.chart_svg` reads the address from :data:`SERVER_ENV`). The engine's memory
is then paid once per server, not once per student. The service is stateless: a spec in, its SVG out,
so no student's chart depends on another's.

Run it with ``python -m widgets.svgserver [--workers N]``; it prints ``http://127.0.0.1:PORT/`` on its
first line of output and listens on loopback only. ``POST /`` with a Vega or Vega-Lite spec answers its SVG
(``vl_convert.vega_to_svg`` or ``vegalite_to_svg``); ``POST /vega`` with a Vega-Lite spec answers it compiled
to Vega (the live explorer compiles each figure once, then sends Vega specs: :mod:`widgets.live`).
"""
from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import os
import re
import signal
import sys
import urllib.error
import urllib.request
from concurrent.futures import ProcessPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

#: The service's address, set in the environment of a class server's kernels.
SERVER_ENV = "DB2BOOK_SVG_SERVER"
#: The largest spec the service accepts, in bytes (a dashboard chart is about 50 kB).
MAX_SPEC_BYTES = 20_000_000


def is_vega(spec: dict) -> bool:
    """Whether ``spec`` is a Vega spec (its ``$schema`` names Vega, not Vega-Lite)."""
    return "/schema/vega/" in str(spec.get("$schema", ""))


def vega_lite_version(spec: dict) -> str | None:
    """The Vega-Lite version a spec's ``$schema`` names, as vl-convert takes it ("v6.4"); None if it names none."""
    found = re.search(r"/schema/vega-lite/(v\d+\.\d+)", str(spec.get("$schema", "")))
    return found.group(1) if found else None


def draw(spec_json: str) -> str:
    """SVG text of one Vega or Vega-Lite spec (JSON text), drawn by ``vl-convert`` in this process."""
    import vl_convert

    spec = json.loads(spec_json)
    if is_vega(spec):
        return vl_convert.vega_to_svg(spec_json)  # the text as it came: 48 ms CPU against 52 for the dict
    return vl_convert.vegalite_to_svg(spec, vl_version=vega_lite_version(spec))


def compile_vega(spec_json: str) -> str:
    """One Vega-Lite spec (JSON text) compiled to a Vega spec (JSON text) by ``vl-convert``."""
    import vl_convert

    spec = json.loads(spec_json)
    return json.dumps(vl_convert.vegalite_to_vega(spec, vl_version=vega_lite_version(spec)))


def _die_with_parent() -> None:
    """A drawing worker ends when the service does, even when the service is killed (Linux's
    PR_SET_PDEATHSIG; elsewhere the service's own shutdown stops its workers)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the service's handler, inherited through fork
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG


def _stop(*_) -> None:
    raise KeyboardInterrupt  # leave serve_forever, so the pool's workers are shut down on the way out


def render_remote(spec: dict, url: str, timeout_s: float = 120.0) -> str:
    """SVG of ``spec`` (Vega or Vega-Lite) drawn by the service at ``url``.

    Raises ValueError when the service rejects the spec (with its reason), OSError when it can't be reached.
    """
    return _post(spec, url, timeout_s)


def compile_remote(spec: dict, url: str, timeout_s: float = 120.0) -> dict:
    """A Vega-Lite spec compiled to Vega by the service at ``url`` (errors as :func:`render_remote`)."""
    return json.loads(_post(spec, url.rstrip("/") + "/vega", timeout_s))


def _post(spec: dict, url: str, timeout_s: float) -> str:
    body = json.dumps(spec, default=str).encode()
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as reply:
            return reply.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        if exc.code == 400:
            raise ValueError(exc.read().decode("utf-8", "replace")) from None
        raise


def _handler(pool: ProcessPoolExecutor) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the http.server name
            length = int(self.headers.get("Content-Length") or 0)
            if not 0 < length <= MAX_SPEC_BYTES:
                return self._reply(400, f"spec: {length} bytes; send 1 to {MAX_SPEC_BYTES:,} bytes of JSON")
            work, kind = {"/": (draw, "image/svg+xml"), "/vega": (compile_vega, "application/json")}.get(
                self.path, (None, ""))
            if work is None:
                return self._reply(404, f"{self.path}: POST a spec to / (its SVG) or to /vega (compiled to Vega)")
            try:
                out = pool.submit(work, self.rfile.read(length).decode("utf-8")).result()
            except ValueError as exc:  # a spec that is not JSON, or that vl-convert can't draw or compile
                return self._reply(400, f"spec: {exc}")
            self._reply(200, out, kind)

        def _reply(self, code: int, text: str, kind: str = "text/plain") -> None:
            data = text.encode("utf-8")
            self.send_response(code)
            self.send_header("Content-Type", f"{kind}; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args) -> None:  # one line per chart would flood the class server's log
            pass

    return Handler


def serve(port: int = 0, workers: int | None = None) -> None:
    """Serve on 127.0.0.1:``port`` (0: a free port) with ``workers`` drawing processes (default: one per core)."""
    workers = (os.cpu_count() or 1) if workers is None else workers
    if workers < 1:
        raise ValueError(f"workers: {workers}; use 1 or more")
    signal.signal(signal.SIGTERM, _stop)
    with ProcessPoolExecutor(max_workers=workers, initializer=_die_with_parent) as pool:
        # start every worker's engine now, so that no student waits for it
        warm = {"data": {"values": [{"x": 0}]}, "mark": "point", "encoding": {"x": {"field": "x", "type": "quantitative"}}}
        list(pool.map(draw, [json.dumps(warm)] * workers))
        server = ThreadingHTTPServer(("127.0.0.1", port), _handler(pool))
        server.daemon_threads = True
        print(f"http://127.0.0.1:{server.server_address[1]}/", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()
        server.server_close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: a free one)")
    ap.add_argument("--workers", type=int, default=None, help="drawing processes (default: one per core)")
    args = ap.parse_args(argv)
    try:
        serve(args.port, args.workers)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
