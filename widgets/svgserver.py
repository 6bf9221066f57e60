"""One chart engine for a whole class: a small local service that turns Vega-Lite specs into SVG.

Drawing a chart in a kernel starts ``vl-convert``'s JavaScript engine in that kernel, which then holds
about 65 MB for as long as the kernel lives. A class server (``make voila CLASS=30``) starts this
service once, with a worker per core, and its kernels send it their charts instead
(:mod:`widgets.engine` reads the address from :data:`SERVER_ENV` and is this service's client). The engine's memory
is then paid once per server, not once per student. The service is stateless: a spec in, its SVG out,
so no student's chart depends on another's.

Run it with ``python -m widgets.svgserver [--workers N]``; it prints ``http://127.0.0.1:PORT/`` on its
first line of output and listens on loopback only. ``POST /`` with a Vega or Vega-Lite spec answers its SVG
(``vl_convert.vega_to_svg`` or ``vegalite_to_svg``); ``POST /vega`` with a Vega-Lite spec answers it compiled
to Vega (the live explorer compiles each figure once, then sends Vega specs: :mod:`widgets.live`).
The drawing itself is :mod:`widgets.engine`'s, run in the service's workers.
"""
from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import os
import signal
import sys
from concurrent.futures import ProcessPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .engine import SERVER_ENV, compile_here, draw_here  # SERVER_ENV: the name classroom/voila_pool.py sets

__all__ = ["SERVER_ENV", "serve", "main"]

#: The largest spec the service accepts, in bytes (a dashboard chart is about 50 kB).
MAX_SPEC_BYTES = 20_000_000


def draw(spec_json: str) -> str:
    """SVG text of one Vega or Vega-Lite spec (JSON text), drawn in this worker."""
    return draw_here(spec_json)


def compile_vega(spec_json: str) -> str:
    """One Vega-Lite spec (JSON text) compiled to a Vega spec (JSON text) in this worker."""
    return json.dumps(compile_here(json.loads(spec_json)))


def _die_with_parent() -> None:
    """A drawing worker ends when the service does, even when the service is killed (Linux's
    PR_SET_PDEATHSIG; elsewhere the service's own shutdown stops its workers)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the service's handler, inherited through fork
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG


def _stop(*_) -> None:
    raise KeyboardInterrupt  # leave serve_forever, so the pool's workers are shut down on the way out


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
        warm = {"data": {"values": [{"x": 0}]}, "mark": "point",
                "encoding": {"x": {"field": "x", "type": "quantitative"}}}
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
