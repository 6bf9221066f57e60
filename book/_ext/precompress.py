"""Compressed copies of the built site's text files, beside the originals (run after a build).

A static host sends HTML, stylesheets and scripts compressed; a chapter's first load on a phone is mostly
those (Lighthouse measured about 900 KB to save on one chapter served uncompressed). The build writes a
Brotli copy (``page.html.br``) and a gzip copy (``page.html.gz``) of every text file of at least
:data:`MIN_BYTES`, which a host with precompressed serving (nginx ``gzip_static``/``brotli_static``, most CDNs)
and ``make serve`` (:mod:`tools.serve`) send to a browser that accepts them. Brotli at quality 9 and gzip at
level 6: the highest levels save 10% more and take 30 times longer on this site.
"""
from __future__ import annotations

import gzip
from pathlib import Path

#: The files worth compressing: text, by suffix (fonts are compressed already; source maps are for DevTools).
TEXT_SUFFIXES = {".html", ".css", ".js", ".mjs", ".json", ".svg", ".txt", ".xml", ".ipynb", ".md", ".ico"}
MIN_BYTES = 1024  # below one packet, compression saves nothing a reader notices
COPIES = (".br", ".gz")


def _brotli(data: bytes) -> bytes:
    import brotli  # pinned in requirements.txt (the font subsetting needs it too)

    return brotli.compress(data, quality=9)


def _gzip(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=6, mtime=0)  # mtime=0: the same bytes on every build


def precompress_site(outdir: Path) -> int:
    """Write ``.br`` and ``.gz`` beside every text file under ``outdir`` that lacks an up-to-date pair, and
    remove copies whose original is gone or too small. Returns how many files were compressed."""
    done = 0
    for copy in [p for s in COPIES for p in outdir.rglob("*" + s)]:
        original = copy.with_suffix("")
        if original.suffix in TEXT_SUFFIXES and (not original.is_file() or original.stat().st_size < MIN_BYTES):
            copy.unlink()
    for path in outdir.rglob("*"):
        if path.suffix not in TEXT_SUFFIXES or not path.is_file() or path.stat().st_size < MIN_BYTES:
            continue
        mtime = path.stat().st_mtime
        stale = [s for s in COPIES if not path.with_name(path.name + s).is_file()
                 or path.with_name(path.name + s).stat().st_mtime < mtime]
        if not stale:
            continue
        data = path.read_bytes()
        for suffix, compress in ((".br", _brotli), (".gz", _gzip)):
            if suffix in stale:
                path.with_name(path.name + suffix).write_bytes(compress(data))
        done += 1
    return done
