"""A class's dashboard under faults (issue 27), each injected by process id on loopback.

A class's Voila server as ``make voila NOTEBOOK=zhyperlink.ipynb CLASS=3`` starts it (a pool of 5 kernels), two
students in their own browser contexts. For each fault the test checks what the student sees (a banner that says
in words what happened and what to do), that recovery is quick and served as it should be, and that nothing is
lost or left behind:

1. a student's dashboard kernel is killed (SIGKILL, as the out-of-memory killer ends it);
2. the Voila server is stopped (SIGTERM) and started again on the same port, as a teacher restarts it.

Times are printed (the teacher's guide quotes them) and bounded loosely: the machine is shared.
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from tools.faults import BANNER, KERNEL_ID, ClassVoila, kill
from tools.procs import cmdline
from tools.site import ROOT, CHROMIUM_ARGS, CHROMIUM, free_port

pytestmark = [pytest.mark.voila, pytest.mark.browser]
NOTEBOOK = ROOT / "dashboards" / "zhyperlink.ipynb"
CLASS = 3
POOL = CLASS + 2  # as `make voila CLASS=3` sizes it
SHOTS = ROOT / "_build" / "screenshots"
CHART = "() => { const e = document.querySelector('.db2book-chart-live svg'); return e ? e.outerHTML : ''; }"
#: JavaScript: true when a broken-link icon (ipywidgets' mark of a widget whose kernel is gone) is drawn.
BROKEN_ICONS = ("() => [...document.querySelectorAll('.jupyter-widgets-disconnected')]"
                ".some(e => getComputedStyle(e, '::before').display !== 'none'"
                " && getComputedStyle(e, '::before').content !== 'none')")


@pytest.fixture(scope="module")
def class_voila(tmp_path_factory):
    log = tmp_path_factory.mktemp("voila") / "voila.log"
    # refills after 2 s of quiet instead of 5 minutes, so that the test sees the pool refill
    server = ClassVoila(NOTEBOOK, POOL, free_port(), log, extra_args=("--ClassKernelManager.quiet_s=2",))
    server.start()
    try:
        server.wait_warm()
        yield server
    finally:
        server.stop()
        left = [p for p in server.seen if cmdline(p)]
        assert not left, f"processes left running: {left}"


@pytest.fixture(scope="module")
def chromium():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def _student(chromium, url: str):
    page = chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(url, wait_until="commit", timeout=180_000)
    page.wait_for_selector(".db2book-chart-live svg", timeout=180_000)
    return page


def _type_into_first_box(page, value: str) -> None:
    before = page.evaluate(CHART)
    box = page.locator(".db2book-explorer .db2book-number input").first
    box.click()
    page.keyboard.press("Control+A")
    page.keyboard.type(value)
    page.keyboard.press("Enter")
    page.wait_for_function(f"(b) => ({CHART})() !== b", arg=before, timeout=60_000)


def _kernel_ids(server: ClassVoila) -> set[str]:
    out = set()
    for pid in server.kernels():
        line = cmdline(pid)
        if "kernel-" in line:
            out.add(line.split("kernel-", 1)[1].split(".json", 1)[0])
    return out


def _wait_kernels(server: ClassVoila, n: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while len(server.kernels()) != n:
        assert time.monotonic() < deadline, f"{len(server.kernels())} kernels, not {n}, after {timeout} s"
        time.sleep(0.5)


def test_a_dead_dashboard_kernel_says_so_and_a_reload_gets_a_fresh_one(class_voila, chromium):
    server = class_voila
    ada, bob = _student(chromium, server.url), _student(chromium, server.url)
    _type_into_first_box(ada, "0.9")  # the student has moved a setting
    kernel = ada.evaluate(KERNEL_ID)
    pid = server.kernel_pid(kernel)
    assert pid, "no process for the student's kernel"
    _wait_kernels(server, POOL + 2, 120)  # two students' kernels, and the pool refilled behind them

    t_kill = time.monotonic()
    kill(pid)
    ada.wait_for_function(f"() => ({BANNER})()?.fault === 'kernel'", timeout=30_000)
    shown_s = time.monotonic() - t_kill
    banner = ada.evaluate(BANNER)
    SHOTS.mkdir(parents=True, exist_ok=True)
    ada.screenshot(path=str(SHOTS / "voila_kernel_died.png"))
    assert "This dashboard lost its Python process." in banner["text"]
    assert "Reload the page" in banner["text"] and "settings will reset" in banner["text"]
    assert ada.locator("#db2book-fault").is_visible()
    assert not ada.evaluate(BROKEN_ICONS), "broken-link icons are shown beside the message"
    # the dead kernel is not restarted as an empty process: it is gone, and nothing replaced it under the page
    _wait_kernels(server, POOL + 1, 30)
    assert server.kernel_pid(kernel) is None
    # the other student's dashboard goes on working, and says nothing
    _type_into_first_box(bob, "0.9")
    assert bob.evaluate(BANNER) is None

    pooled = _kernel_ids(server) - {bob.evaluate(KERNEL_ID)}
    t_reload = time.monotonic()
    ada.get_by_role("button", name="Reload the page").click()
    ada.wait_for_function(f"(old) => document.getElementById('jupyter-config-data') && ({KERNEL_ID})() !== old",
                          arg=kernel, timeout=120_000)
    ada.wait_for_selector(".db2book-chart-live svg", timeout=120_000)
    reload_s = time.monotonic() - t_reload
    assert ada.evaluate(BANNER) is None
    assert ada.evaluate(KERNEL_ID) in pooled, "the reload was not served from the pool"
    _type_into_first_box(ada, "0.9")  # the fresh dashboard answers
    t_refill = time.monotonic()
    _wait_kernels(server, POOL + 2, 180)  # the pool refills behind the reload
    refill_s = time.monotonic() - t_refill
    print(f"\nkernel killed -> message {shown_s:.1f} s; reload -> dashboard back {reload_s:.1f} s; "
          f"pool refilled {refill_s:.1f} s later (quiet_s=2)")
    assert shown_s < 15 and reload_s < 60
    ada.context.close()
    bob.context.close()


def test_a_voila_restart_says_so_and_a_reload_works_once_it_is_back(class_voila, chromium):
    server = class_voila
    ada = _student(chromium, server.url)
    t_stop = time.monotonic()
    left = server.terminate()
    assert not left, f"the stopped server left these running: {[cmdline(p) for p in left]}"
    ada.wait_for_function(f"() => ({BANNER})()?.fault === 'server'", timeout=30_000)
    shown_s = time.monotonic() - t_stop
    banner = ada.evaluate(BANNER)
    assert "This dashboard lost its server." in banner["text"] and "reload the page" in banner["text"]
    assert not ada.evaluate(BROKEN_ICONS)

    t_start = server.start()
    ada.wait_for_function(f"() => ({BANNER})()?.fault === 'server-back'", timeout=120_000)
    back_s = time.monotonic() - t_start
    assert "server is back" in ada.evaluate(BANNER)["text"]
    warm_s = server.wait_warm() - t_start
    t_reload = time.monotonic()
    ada.get_by_role("button", name="Reload the page").click()
    ada.wait_for_selector(".db2book-chart-live svg", timeout=120_000)
    reload_s = time.monotonic() - t_reload
    assert ada.evaluate(BANNER) is None
    _type_into_first_box(ada, "0.9")
    print(f"\nvoila stopped -> message {shown_s:.1f} s; started -> 'back' message {back_s:.1f} s; "
          f"pool of {POOL} warm {warm_s:.1f} s after the start; reload -> dashboard {reload_s:.1f} s")
    assert shown_s < 15 and back_s < 60
    ada.context.close()


def test_the_page_template_is_the_books():
    """``make voila`` reads dashboards/jupyter-config: its voila.py chooses the page with the fault banner."""
    config = (ROOT / "dashboards" / "jupyter-config" / "voila.py").read_text()
    assert 'c.VoilaConfiguration.template = "db2book"' in config
    folder = ROOT / "dashboards" / "jupyter-config" / "share" / "voila" / "templates" / "db2book"
    js = (folder / "db2book-faults.js").read_text()
    for words in ("This dashboard lost its Python process.", "This dashboard lost its server."):
        assert words in js
    assert "db2book-faults.js" in (folder / "index.html.j2").read_text()
    assert Path(folder / "conf.json").exists()
