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

import contextlib
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.test_jupyterhub import Hub, _run_in_kernel
from tools.faults import BANNER, KERNEL_ID, ClassVoila, kill
from tools.procs import cmdline
from tools.site import ROOT, browser, free_port

pytestmark = [pytest.mark.browser]
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
    with browser() as b:
        yield b


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


@pytest.mark.voila
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
    # a kernel that dies while it waits in the pool is replaced, and the next student is served a live one
    waiting = _kernel_ids(server) - {ada.evaluate(KERNEL_ID), bob.evaluate(KERNEL_ID)}
    victim = sorted(waiting)[0]
    kill(server.kernel_pid(victim))
    t_pool = time.monotonic()
    _wait_kernels(server, POOL + 1, 30)
    _wait_kernels(server, POOL + 2, 180)
    replaced_s = time.monotonic() - t_pool
    cyd = _student(chromium, server.url)
    assert cyd.evaluate(KERNEL_ID) != victim
    _type_into_first_box(cyd, "0.9")
    print(f"\nkernel killed -> message {shown_s:.1f} s; reload -> dashboard back {reload_s:.1f} s; "
          f"pool refilled {refill_s:.1f} s later (quiet_s=2); a pooled kernel killed was replaced in "
          f"{replaced_s:.1f} s")
    assert shown_s < 15 and reload_s < 60
    for page in (ada, bob, cyd):
        page.context.close()


@pytest.mark.voila
def test_a_voila_restart_says_so_and_a_reload_works_once_it_is_back(class_voila, chromium):
    server = class_voila
    ada = _student(chromium, server.url)
    t_stop = time.monotonic()
    left = server.terminate()
    assert not left, f"the stopped server left these running: {[cmdline(p) for p in left]}"
    ada.wait_for_function(f"() => ({BANNER})()?.fault === 'server'", timeout=30_000)
    shown_s = time.monotonic() - t_stop
    banner = ada.evaluate(BANNER)
    SHOTS.mkdir(parents=True, exist_ok=True)
    ada.screenshot(path=str(SHOTS / "voila_server_lost.png"))
    assert "This dashboard lost its server." in banner["text"] and "reload the page" in banner["text"]
    assert not ada.evaluate(BROKEN_ICONS)

    t_start = server.start()
    ada.wait_for_function(f"() => ({BANNER})()?.fault === 'server-back'", timeout=120_000)
    back_s = time.monotonic() - t_start
    ada.screenshot(path=str(SHOTS / "voila_server_back.png"))
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


@pytest.mark.voila
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


# --- the class JupyterHub: a student's kernel dies, the hub restarts, a student's memory grows ------------------

HUB_STUDENTS = ("ada", "bob")
ASSIGNMENT = "zhyperlink"
STUDENT_ID_CELL = 'STUDENT_ID = "ada"'
#: JavaScript: the execution prompts of the open notebook's code cells.
PROMPTS = ("() => Array.from(document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell'))"
           ".map(c => ((c.querySelector('.jp-InputPrompt') || {}).textContent || '').trim())")


#: JavaScript: the open notebook's kernel is idle (JupyterLab's toolbar indicator).
KERNEL_IDLE = ("() => [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) "
               ".jp-Notebook-ExecutionIndicator')].some(e => e.getAttribute('data-status') === 'idle')")


def _save(page) -> None:
    import re

    page.locator(".lm-MenuBar-itemLabel", has_text="File").first.click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Save Notebook$")).first.click()


def _type_into(page, cell, text: str) -> None:
    """Replace a cell's code by typing it, as a student does (the editor's own key handling, which keeps
    JupyterLab's model in step; Playwright's fill() changed the page but, under load, not always the model)."""
    for _ in range(3):
        cell.click()
        page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook.jp-mod-editMode", timeout=30_000)
        page.keyboard.press("Control+A")
        page.keyboard.type(text, delay=20)
        if cell.inner_text().strip() == text:
            return
    raise AssertionError(f"the cell reads {cell.inner_text()!r}, not {text!r}")


def _run_cell(page, cell, prompt: str, timeout_s: float = 120) -> None:
    """Run ``cell`` (Ctrl+Enter) until its prompt matches ``prompt``. The request is sent again every 15 s: a
    JupyterLab page that has just connected to its kernel now and then drops the first one (seen here, with
    the kernel shown idle), and the test is about faults, not about that."""
    deadline = time.monotonic() + timeout_s
    while True:
        # blank the prompt on the page (not in the notebook), so that only a run that ends now fills it again
        page.evaluate("() => { const p = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) "
                      ".jp-CodeCell .jp-InputPrompt'); if (p) p.textContent = ''; }")
        cell.click()
        cell.press("Control+Enter")
        try:
            page.wait_for_function(f"(p) => new RegExp(p).test(({PROMPTS})()[0])", arg=prompt, timeout=15_000)
            return
        except Exception:
            if time.monotonic() > deadline:
                raise


class ClassHub(Hub):
    """The class JupyterHub of classroom/jupyterhub_config.py with its proxy run on its own (hubproxy)."""

    def __init__(self, scratch: Path):
        import secrets

        self.scratch, self.state = scratch, scratch / "hub"
        self.port, self.token = free_port(), secrets.token_hex(16)
        self.env = {**os.environ, "DB2BOOK_HUB_STATE": str(self.state), "DB2BOOK_HUB_TRIAL": "1",
                    "DB2BOOK_HUB_IP": "127.0.0.1", "DB2BOOK_HUB_PORT": str(self.port),
                    "DB2BOOK_HUB_TOKEN": self.token, "DB2BOOK_HUB_PROXY": "external",
                    "DB2BOOK_HUB_API_PORT": str(free_port()), "DB2BOOK_HUB_PROXY_API_PORT": str(free_port()),
                    "PYTHONPATH": str(ROOT), "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
        self.env.pop("JUPYTER_CONFIG_DIR", None)
        super().__init__(f"http://127.0.0.1:{self.port}", self.token)
        self.proxy = self.hub = None
        self.seen: set[int] = set()

    def start_proxy(self) -> None:
        self.proxy = subprocess.Popen([sys.executable, "-m", "classroom.hubproxy"], cwd=ROOT, env=self.env,
                                      stdout=open(self.scratch / "proxy.log", "ab"), stderr=subprocess.STDOUT,
                                      start_new_session=True)

    def start_hub(self) -> float:
        self.hub = subprocess.Popen([str(Path(sys.executable).parent / "jupyterhub"), "-f",
                                     str(ROOT / "classroom" / "jupyterhub_config.py")], cwd=self.scratch,
                                    env=self.env, stdout=open(self.scratch / "hub.log", "ab"),
                                    stderr=subprocess.STDOUT, start_new_session=True)
        return time.monotonic()

    def wait_api(self, timeout: float = 120) -> float:
        deadline = time.monotonic() + timeout
        while True:
            assert self.hub.poll() is None, (self.scratch / "hub.log").read_text()[-3000:]
            try:
                self.api("GET", "/hub/api/", timeout=5)
                return time.monotonic()
            except (urllib.error.URLError, ConnectionError, OSError):
                assert time.monotonic() < deadline, f"the hub did not answer in {timeout} s"
                time.sleep(0.25)

    def ready(self, user: str) -> bool:
        return bool(self.api("GET", f"/hub/api/users/{user}").get("servers", {}).get("", {}).get("ready"))

    def processes(self) -> set[int]:
        from classroom.watch import student_processes

        return {p for pids in student_processes().values() for p in pids}

    def stop(self) -> None:
        from tools.procs import descendants

        for proc in (self.hub, self.proxy):
            if proc is not None:
                self.seen |= set(descendants(proc.pid))
        self.seen |= self.processes()
        for proc in (self.hub, self.proxy):
            if proc is not None and proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGTERM)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=30)
                if proc.poll() is None:
                    os.killpg(proc.pid, signal.SIGKILL)
        for pid in self.seen:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _digest(folder: Path) -> dict[str, str]:
    """Every file a student has (outside hidden folders) -> its SHA-256."""
    import hashlib

    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not any(
                part.startswith(".") for part in p.relative_to(folder).parts)}


def _code(notebook: Path) -> str:
    """The code cells of a saved notebook (empty while it is being written)."""
    import nbformat

    try:
        return "\n".join(c.source for c in nbformat.read(notebook, as_version=4).cells if c.cell_type == "code")
    except ValueError:  # JupyterLab is still writing it
        return ""


def _nbgrader(cwd: Path, *args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([str(Path(sys.executable).parent / "nbgrader"), *args], cwd=cwd, env=env, text=True,
                          capture_output=True, timeout=600)


def _login(chromium, hub: ClassHub, user: str, next_url: str, timeout_ms: float = 120_000):
    page = chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{hub.url}/hub/login?next={next_url}", wait_until="domcontentloaded", timeout=timeout_ms)
    page.fill("#username_input", user)
    page.click("#login_submit")
    return page


@pytest.fixture(scope="module")
def class_hub(tmp_path_factory):
    from classroom import course as C

    scratch = tmp_path_factory.mktemp("classhub")
    assert (ROOT / "node_modules" / ".bin" / "configurable-http-proxy").exists(), "run `make node`"
    hub = ClassHub(scratch)
    # the teacher's course, one assignment released to an exchange folder; nbgrader reads its settings from
    # the course's nbgrader_config.py and from this environment (the exchange's place)
    course = C.build(scratch / "course", chapters=(ASSIGNMENT,))
    exchange = scratch / "exchange"
    exchange.mkdir()
    cfg = f"--Exchange.root={exchange}"
    out = _nbgrader(course, "release_assignment", ASSIGNMENT, cfg, "--force", env=hub.env)
    assert out.returncode == 0, out.stdout + out.stderr
    hub.course, hub.exchange_arg = course, cfg
    try:
        hub.start_proxy()
        hub.start_hub()
        hub.wait_api()
        hub.api("POST", "/hub/api/users", {"usernames": list(HUB_STUDENTS)})
        for user in HUB_STUDENTS:
            hub.api("POST", f"/hub/api/users/{user}/server")
        deadline = time.monotonic() + 240
        for user in HUB_STUDENTS:
            while not hub.ready(user):
                assert time.monotonic() < deadline, f"{user}'s server was not ready in 240 s"
                time.sleep(0.5)
        for user in HUB_STUDENTS:  # each student fetches the assignment into their home
            env = {**hub.env, "JUPYTERHUB_USER": user}
            out = _nbgrader(hub.state / "home" / user, "fetch_assignment", ASSIGNMENT, f"--course={C.COURSE_ID}",
                            cfg, env=env)
            assert out.returncode == 0, out.stdout + out.stderr
        yield hub
    finally:
        hub.stop()


@pytest.mark.slow
def test_a_students_kernel_dies_mid_assignment_and_nothing_saved_is_lost(class_hub, chromium):
    hub, user = class_hub, "ada"
    home = hub.state / "home" / user
    notebook = home / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    page = _login(chromium, hub, user, f"/user/{user}/lab/tree/{ASSIGNMENT}/{ASSIGNMENT}.ipynb")
    page.wait_for_selector(".jp-NotebookPanel .jp-CodeCell", timeout=180_000)
    page.wait_for_function(f"() => ({PROMPTS})().length > 0", timeout=60_000)
    page.wait_for_selector(".jp-NotebookPanel .jp-Toolbar-kernelStatus, .jp-Notebook-ExecutionIndicator",
                           timeout=120_000)
    # the student writes their id into the first code cell, runs it and saves
    page.wait_for_function(KERNEL_IDLE, timeout=180_000)
    cell = page.locator(".jp-NotebookPanel .jp-CodeCell .cm-content").first
    _type_into(page, cell, STUDENT_ID_CELL)
    _run_cell(page, cell, r"\[\d+\]")
    deadline, next_save = time.monotonic() + 60, 0.0
    while STUDENT_ID_CELL not in _code(notebook):
        if time.monotonic() > next_save:  # File > Save Notebook (again, if a click was lost)
            _save(page)
            next_save = time.monotonic() + 10
        assert time.monotonic() < deadline, f"the notebook was not saved: {_code(notebook)[:300]!r}, " \
            f"{sorted(_digest(home))}"
        time.sleep(0.25)
    saved = _digest(home)

    from classroom.watch import student_processes

    kernels = [p for p in student_processes().get(user, []) if "ipykernel" in cmdline(p)]
    assert len(kernels) == 1, kernels
    t_kill = time.monotonic()
    kill(kernels[0])
    dialog = page.locator(".jp-Dialog")
    dialog.wait_for(timeout=30_000)
    shown_s = time.monotonic() - t_kill
    text = dialog.inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "jupyterlab_kernel_died.png"))
    assert "appears to have died" in text and "restart" in text.lower(), text
    assert _digest(home) == saved, "a file the student saved changed"
    dialog.get_by_role("button").first.click()
    # the server restarted the kernel: the student runs their cell again and it answers
    deadline = time.monotonic() + 120
    while not [p for p in student_processes().get(user, []) if "ipykernel" in cmdline(p)]:
        assert time.monotonic() < deadline, "no kernel came back"
        time.sleep(0.25)
    page.wait_for_function(KERNEL_IDLE, timeout=120_000)
    _run_cell(page, cell, r"\[\d+\]")
    back_s = time.monotonic() - t_kill

    # what they saved validates and is submitted, and the teacher collects exactly that
    env = {**hub.env, "JUPYTERHUB_USER": user}
    out = _nbgrader(home, "validate", str(notebook.relative_to(home)), env=env)
    # it ran the saved notebook as the student's: only the answers still to come fail
    assert out.returncode == 0 and "VALIDATION FAILED" in out.stdout, out.stdout + out.stderr
    assert "no answer for" in out.stdout and "student_id" not in out.stdout.lower(), out.stdout
    from classroom import course as C

    out = _nbgrader(home, "submit", ASSIGNMENT, f"--course={C.COURSE_ID}", hub.exchange_arg, env=env)
    assert out.returncode == 0, out.stdout + out.stderr
    out = _nbgrader(hub.course, "collect", ASSIGNMENT, hub.exchange_arg, "--update", env=hub.env)
    assert out.returncode == 0, out.stdout + out.stderr
    collected = list((hub.course / "submitted").glob(f"*/{ASSIGNMENT}/{ASSIGNMENT}.ipynb"))
    assert len(collected) == 1 and STUDENT_ID_CELL in _code(collected[0]), collected
    print(f"\nstudent's kernel killed -> JupyterLab's dialog {shown_s:.1f} s; a cell runs again {back_s:.1f} s "
          f"after the kill; collected as {collected[0].parent.parent.name}")
    hub.ada_page = page


def _lab_page(hub: ClassHub, chromium, user: str):
    """The student's JupyterLab with the assignment open and its kernel idle (reused from the test before)."""
    page = getattr(hub, "ada_page", None) if user == "ada" else None
    if page is None:
        page = _login(chromium, hub, user, f"/user/{user}/lab/tree/{ASSIGNMENT}/{ASSIGNMENT}.ipynb")
        page.wait_for_selector(".jp-NotebookPanel .jp-CodeCell", timeout=180_000)
    page.wait_for_function(KERNEL_IDLE, timeout=180_000)
    return page


@pytest.mark.slow
def test_a_hub_restart_keeps_open_notebooks_working_and_logins_resume(class_hub, chromium):
    hub = class_hub
    ada = _lab_page(hub, chromium, "ada")
    cell = ada.locator(".jp-NotebookPanel .jp-CodeCell .cm-content").first
    homes = {u: _digest(hub.state / "home" / u) for u in HUB_STUDENTS}
    servers = {p for p in hub.processes() if "jupyterhub-singleuser" in cmdline(p)}
    assert len(servers) == len(HUB_STUDENTS)

    t_stop = time.monotonic()
    os.kill(hub.hub.pid, signal.SIGTERM)  # the hub process only
    hub.hub.wait(timeout=60)
    stopped_s = time.monotonic() - t_stop
    assert hub.proxy.poll() is None, "the proxy stopped with the hub"
    assert servers <= hub.processes(), "a student's server stopped with the hub"
    # while the hub is down: a student's open notebook runs and saves, through the proxy
    _run_cell(ada, cell, r"\[\d+\]", timeout_s=60)
    _save(ada)
    ada.wait_for_function("() => !document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-mod-dirty')",
                          timeout=30_000)
    try:  # and what a student who logs in now sees
        urllib.request.urlopen(f"{hub.url}/hub/login", timeout=10)
        down_status = 200
    except urllib.error.HTTPError as e:
        down_status = e.code
    assert down_status >= 500, "the hub answered while it was stopped"

    t_start = hub.start_hub()
    api_s = hub.wait_api() - t_start
    bob = None
    deadline = time.monotonic() + 120
    while True:  # bob logs in as soon as the login page is served, and lands in his running server
        try:
            bob = _login(chromium, hub, "bob", "/user/bob/lab", timeout_ms=20_000)
            bob.wait_for_selector(".jp-LabShell, #jp-main-dock-panel", timeout=60_000)
            break
        except Exception:
            if bob is not None:
                bob.context.close()
            assert time.monotonic() < deadline, "bob could not log in within 120 s of the hub's start"
            bob = None
            time.sleep(0.5)
    login_s = time.monotonic() - t_start
    assert all(hub.ready(u) for u in HUB_STUDENTS), "the hub lost track of a running server"
    assert servers <= hub.processes(), "a student's server was restarted"
    assert _digest(hub.state / "home" / "bob") == homes["bob"], "bob's files changed"
    ada_now = _digest(hub.state / "home" / "ada")
    changed = {k for k in set(ada_now) | set(homes["ada"]) if ada_now.get(k) != homes["ada"].get(k)}
    assert changed <= {f"{ASSIGNMENT}/{ASSIGNMENT}.ipynb"}, changed  # only the notebook she saved herself
    assert STUDENT_ID_CELL in _code(hub.state / "home" / "ada" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb")
    _run_cell(ada, cell, r"\[\d+\]", timeout_s=60)  # and it still runs after the restart
    print(f"\nhub stopped in {stopped_s:.1f} s (a login meanwhile: HTTP {down_status}); hub answered "
          f"{api_s:.1f} s after its start; bob logged in and had JupyterLab {login_s:.1f} s after the start")
    bob.context.close()


@pytest.mark.slow
def test_a_student_over_the_memory_limit_is_named_by_the_watch(class_hub):
    """Local process spawners do not enforce Spawner.mem_limit: the config and the watch say so, and the watch
    names the student over the limit and what to do."""
    from classroom import watch
    config = (ROOT / "classroom" / "jupyterhub_config.py").read_text()
    assert "NOT by the local" in config and "classroom.watch" in config
    assert "do not enforce" in watch.__doc__
    hub = class_hub
    run = [sys.executable, "-m", "classroom.watch", "--limit", "700M"]
    out = subprocess.run(run, cwd=ROOT, env=hub.env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    assert all(f"{u}: " in out.stdout for u in HUB_STUDENTS) and "OVER" not in out.stdout, out.stdout
    kernel = hub.api("POST", "/user/bob/api/kernels", {"name": "python3"})
    try:
        ws = f"ws://127.0.0.1:{hub.port}/user/bob/api/kernels/{kernel['id']}/channels"
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(1) as pool:  # its own event loop, away from the browser's
            errors = pool.submit(_run_in_kernel, ws, hub.token, ["big = b'x' * (800 * 2**20)"], 120).result()
        assert not errors, errors
        out = subprocess.run(run, cwd=ROOT, env=hub.env, capture_output=True, text=True, timeout=60)
        print("\n" + out.stdout)
        assert out.returncode == 1
        over = [line for line in out.stdout.splitlines() if "OVER" in line]
        assert len(over) == 1 and over[0].startswith("bob: "), out.stdout
        assert "saved files are kept" in over[0]
    finally:
        hub.api("DELETE", f"/user/bob/api/kernels/{kernel['id']}")
    assert watch.parse_mb("1G") == 1024 and watch.parse_mb("400M") == 400
