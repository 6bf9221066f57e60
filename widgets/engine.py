"""The chart engine: the one place where a chart is compiled (Vega-Lite to Vega) and drawn (to SVG).

Both run ``vl-convert``'s JavaScript engine, either in this process or, on a class server
(``make voila CLASS=30``), in the class's chart service (:mod:`widgets.svgserver`), whose address
:data:`SERVER_ENV` names: a kernel that sends its charts there never starts an engine of its own
(about 65 MB each). When the service can't be reached, the chart is made here. The Vega-Lite version a
spec is compiled with is the one its ``$schema`` names (:func:`vega_lite_version`), on every path.

Drawn SVG is kept in the class's shared cache when :data:`SVG_CACHE_ENV` names a folder: a chart one
student's kernel drew, at the same settings, is read back by the next instead of drawn again.

Nothing here knows about figures or widgets: a spec goes in, a spec or an SVG comes out.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import urllib.error
import urllib.request
from pathlib import Path

#: The chart service's address, set in the environment of a class server's kernels.
SERVER_ENV = "DB2BOOK_SVG_SERVER"
#: A folder shared by every kernel of a class server (``make voila`` sets it): a chart already drawn
#: for one student, at the same settings, is read back instead of drawn again. The first render at
#: the calibrated defaults is the same for the whole class, so it is drawn once, not thirty times.
SVG_CACHE_ENV = "DB2BOOK_SVG_CACHE"


def is_vega(spec: dict) -> bool:
    """Whether ``spec`` is a Vega spec (its ``$schema`` names Vega, not Vega-Lite)."""
    return "/schema/vega/" in str(spec.get("$schema", ""))


def vega_lite_version(spec: dict) -> str | None:
    """The Vega-Lite version a spec's ``$schema`` names, as vl-convert takes it ("v6.4"); None if it names
    none (vl-convert's own default). Altair writes its version into every spec it makes."""
    found = re.search(r"/schema/vega-lite/(v\d+\.\d+)", str(spec.get("$schema", "")))
    return found.group(1) if found else None


# --- in this process -----------------------------------------------------------------------------------


def compile_here(spec: dict) -> dict:
    """A Vega-Lite spec compiled to Vega by ``vl-convert`` in this process."""
    import vl_convert

    return vl_convert.vegalite_to_vega(spec, vl_version=vega_lite_version(spec))


def draw_here(spec: dict | str) -> str:
    """SVG text of a Vega or Vega-Lite spec (a dict, or its JSON text), drawn by ``vl-convert`` in this process."""
    import vl_convert

    text = spec if isinstance(spec, str) else None
    spec = json.loads(spec) if isinstance(spec, str) else spec
    if is_vega(spec):
        return vl_convert.vega_to_svg(text if text is not None else spec)  # the text as it came: 48 ms CPU against 52
    return vl_convert.vegalite_to_svg(spec, vl_version=vega_lite_version(spec))


# --- by the class's chart service ---------------------------------------------------------------------


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


# --- wherever the engine is: the service when there is one, else here ----------------------------------


def compile_vega(spec: dict) -> dict:
    """A Vega-Lite spec compiled to Vega: by the class's chart service when there is one (so that this
    kernel never starts a chart engine of its own), else here."""
    url = os.environ.get(SERVER_ENV)
    if url:
        try:
            return compile_remote(spec, url)
        except OSError:
            pass  # the service is gone: compile here
    return compile_here(spec)


def _draw(spec: dict) -> str:
    url = os.environ.get(SERVER_ENV)
    if url:
        try:
            return render_remote(spec, url)
        except OSError:
            pass  # the service is gone: draw here, at the cost of this kernel holding its own engine
    return draw_here(spec)


def draw_svg(spec: dict) -> str:
    """SVG of a Vega or Vega-Lite spec, read from the class's shared cache when it was drawn before, else
    drawn by the class's chart service when there is one, else here."""
    folder = os.environ.get(SVG_CACHE_ENV)
    if not folder:
        return _draw(spec)
    key = hashlib.sha256(json.dumps(spec, sort_keys=True, default=str).encode()).hexdigest()
    path = Path(folder) / key[:2] / f"{key}.svg"
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        pass
    svg = _draw(spec)
    try:  # write then rename, so that another kernel never reads half a file
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(svg, encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass  # a read-only or full cache only costs speed
    return svg
