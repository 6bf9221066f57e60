"""Serve the built site as a static host does: text files compressed (``make serve``, the tests, the bench).

``python -m http.server`` sends every file as it is. A static host (GitHub Pages, Netlify, a web server
with ``gzip_static``) sends HTML, CSS and scripts compressed, and a page's first load on a slow link is
mostly those. The build writes a Brotli (``.br``) and a gzip (``.gz``) copy beside every text file
(``book/_ext/precompress.py``); this server sends the copy the browser accepts, with ``Content-Encoding``,
the original's ``Content-Type`` and ``Vary: Accept-Encoding``. A copy older than its original (a file
changed after the build) is never sent: the original is.

    python -m tools.serve [--directory _build/html] [--bind 127.0.0.1] [PORT]
"""
from __future__ import annotations

import argparse
import functools
import os
import sys
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The encodings the build writes, best first: (Content-Encoding, suffix of the file beside the original).
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))


def accepted(header: str | None) -> set[str]:
    """The codings an ``Accept-Encoding`` header accepts (``q=0`` refuses one)."""
    out = set()
    for part in (header or "").split(","):
        name, _, params = part.strip().partition(";")
        q = params.strip()
        if name and not (q.startswith("q=") and float(q[2:] or 0) == 0):
            out.add(name.strip().lower())
    return out


def precompressed(path: Path, accept: set[str]) -> tuple[Path, str] | None:
    """The compressed copy of ``path`` to send to a browser that accepts ``accept``, and its coding;
    None when there is none, it is accepted by no coding, or it is older than the original."""
    for coding, suffix in ENCODINGS:
        copy = path.with_name(path.name + suffix)
        if coding in accept and copy.is_file() and copy.stat().st_mtime >= path.stat().st_mtime:
            return copy, coding
    return None


class CompressedHandler(SimpleHTTPRequestHandler):
    """``SimpleHTTPRequestHandler`` that sends a file's precompressed copy when the browser accepts it."""

    def send_head(self):
        path = Path(self.translate_path(self.path))
        found = precompressed(path, accepted(self.headers.get("Accept-Encoding"))) if path.is_file() else None
        if found is None:
            return super().send_head()
        copy, coding = found
        f = open(copy, "rb")  # noqa: SIM115 - returned to the caller, which closes it (as http.server does)
        try:
            size = os.fstat(f.fileno()).st_size
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Encoding", coding)
            self.send_header("Content-Length", str(size))
            self.send_header("Vary", "Accept-Encoding")
            self.send_header("Last-Modified", self.date_time_string(int(path.stat().st_mtime)))
            self.end_headers()
            return f
        except BaseException:
            f.close()
            raise


def handler(directory: Path, compressed: bool = True, quiet: bool = False):
    """The request handler class for ``directory`` (with precompressed copies, unless ``compressed`` is False)."""
    base = CompressedHandler if compressed else SimpleHTTPRequestHandler
    if quiet:
        base = type("Quiet" + base.__name__, (base,), {"log_message": lambda self, *args: None})
    return functools.partial(base, directory=str(directory))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("port", nargs="?", type=int, default=8000)
    ap.add_argument("--bind", default="127.0.0.1")
    ap.add_argument("--directory", type=Path, default=ROOT / "_build" / "html")
    args = ap.parse_args(argv)
    if not (args.directory / "index.html").exists():
        print(f"serve: {args.directory} has no index.html: run `make book` first", file=sys.stderr)
        return 2
    server = ThreadingHTTPServer((args.bind, args.port), handler(args.directory))
    print(f"Serving {args.directory} on http://{args.bind}:{server.server_address[1]}/ (compressed copies "
          "sent where the build made them)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
