"""The parts of a class's Voila server that run without Voila: the shared chart engine
(``widgets.svgserver``) and the dashboard kernel's preparation (``widgets.dashboard_kernel``)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tools.site import ROOT, free_port
from widgets import engine, live
from widgets.figure import chart_at
from widgets.engine import SERVER_ENV, render_remote
import widgets.large_memory.figures as F


@pytest.fixture(scope="module")
def svg_service():
    proc = subprocess.Popen([sys.executable, "-m", "widgets.svgserver", "--workers", "1"], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:"), url
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def _spec(k: int) -> dict:
    p = F.SYNC_READS.params[0]
    values = {q.name: q.default for q in F.SYNC_READS.all_params}
    values[p.name] = p.default + k * p.step
    return chart_at(F.SYNC_READS, **values).to_dict()


def test_the_service_draws_what_the_kernel_would(svg_service):
    import vl_convert

    for k in (0, 3):
        spec = _spec(k)
        assert render_remote(spec, svg_service) == vl_convert.vegalite_to_svg(spec)
    assert render_remote(_spec(0), svg_service) != render_remote(_spec(3), svg_service)


def test_the_service_names_a_bad_spec(svg_service):
    with pytest.raises(ValueError, match="^spec: "):
        render_remote({"mark": {"type": "no-such-mark"}, "data": {"values": [{"x": 1}]}}, svg_service)


def test_the_explorer_draws_through_the_service_and_without_it(svg_service, monkeypatch):
    spec = _spec(2)
    monkeypatch.delenv(engine.SVG_CACHE_ENV, raising=False)
    monkeypatch.setenv(SERVER_ENV, svg_service)
    through = engine.draw_svg(spec)
    monkeypatch.setenv(SERVER_ENV, f"http://127.0.0.1:{free_port()}/")  # nothing listens: drawn in this process
    here = engine.draw_svg(spec)
    assert through == here and through.lstrip().startswith("<svg")


def test_the_service_refuses_zero_workers():
    out = subprocess.run([sys.executable, "-m", "widgets.svgserver", "--workers", "0"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "workers: 0; use 1 or more" in out.stderr


def test_a_dashboard_kernel_skips_the_iri_parser_and_still_validates_charts():
    code = (
        "import widgets.dashboard_kernel as d; d.prepare(); import sys\n"
        "import altair as alt, jsonschema\n"
        "assert 'iri' not in jsonschema.FormatChecker().checkers\n"
        "assert 'rfc3987_syntax' not in [m for m, v in sys.modules.items() if v is not None]\n"
        "alt.Chart(alt.Data(values=[{'x': 1}])).mark_point().encode(x='x:Q').to_dict()\n"
        "try:\n"
        "    alt.Chart(alt.Data(values=[{'x': 1}])).mark_point().encode(x='x:Q').properties(width='wide').to_dict()\n"
        "except Exception as e:\n"
        "    print('rejected', type(e).__name__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env=dict(os.environ))
    assert out.returncode == 0, out.stderr
    assert "rejected" in out.stdout  # altair's validation still runs without the skipped module


def test_the_service_compiles_and_draws_vega_as_the_kernel_would(svg_service):
    import vl_convert

    from widgets.engine import compile_remote, vega_lite_version

    spec = _spec(1)
    vega = compile_remote(spec, svg_service)
    assert vega == vl_convert.vegalite_to_vega(spec, vl_version=vega_lite_version(spec))
    assert vega["$schema"].startswith("https://vega.github.io/schema/vega/")
    assert render_remote(vega, svg_service) == vl_convert.vega_to_svg(vega)


def test_the_live_chart_is_the_same_through_the_service_and_without_it(svg_service, monkeypatch):
    monkeypatch.delenv(engine.SVG_CACHE_ENV, raising=False)
    fig = F.SYNC_READS
    p = fig.params[0]
    setting = {p.name: p.default + 2 * p.step if p.default + 2 * p.step <= p.max else p.default - 2 * p.step}
    monkeypatch.setattr(live, "_COMPILED", {})
    monkeypatch.setenv(SERVER_ENV, svg_service)
    through = live.render_svg(fig, **setting)
    monkeypatch.setattr(live, "_COMPILED", {})
    monkeypatch.delenv(SERVER_ENV)
    here = live.render_svg(fig, **setting)
    assert through == here and through.startswith('<svg role="img" aria-label="')
