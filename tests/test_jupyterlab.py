"""The student's door: the Binder launch links, stood in for on loopback.

Docker and repo2docker can't run here, so this stands in for the Binder image: a copy of the repository's
files (what a clone holds), the repository's ``postBuild`` run from its root with a scratch ``HOME``, then
JupyterLab started from that root, as the image starts it. For every notebook page the launch link is read
from the built page; the test opens its ``urlpath``, checks that a notebook (not the text editor) opened,
runs all cells, and requires no error output and live ipywidgets controls that redraw the chart when moved.
It opens a dashboard through the Binder-style Voila URL, and checks that Voila shows a dashboard's users a
short message instead of a traceback (on Binder and in ``make voila``) while the server log keeps the trace.
"""
from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import time
import urllib.request
from html import unescape
from importlib import metadata
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import nbformat
import pytest
import yaml
from packaging.specifiers import SpecifierSet

from tools.site import ROOT, SITE, RequestLog, browser, clone_files, free_port, server

BIN = Path(sys.executable).parent
SHOTS = ROOT / "_build" / "screenshots"
#: The launch menu's Binder button and the chapter's dashboard link, as the built page writes them.
BINDER_HREF = re.compile(r'href="([^"]+)"[^>]*title="Launch on Binder"')
DASHBOARD_HREF = re.compile(r'<a class="[^"]*db2book-binder-dashboard[^"]*" href="([^"]+)"')
#: JavaScript: the innerHTML of the first live chart, to see it redraw.
CHART = "() => { const e = document.querySelector('.db2book-chart-live'); return e ? e.innerHTML : ''; }"
SHORT_MESSAGE = "The details are in the server's log."
BOOM = "boom: a secret detail that only the log should show"


# --- what Binder builds from ----------------------------------------------------------------------------------

def _pins() -> dict[str, str]:
    """requirements.txt's exact pins, name -> version."""
    pins = {}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        if "==" in line and not line.lstrip().startswith("#"):
            name, version = line.split("==")
            pins[name.strip()] = version.strip()
    return pins


def _runtime_python() -> str:
    """The Python ``runtime.txt`` names for repo2docker, as ``X.Y``."""
    text = (ROOT / "runtime.txt").read_text().strip()
    match = re.fullmatch(r"python-(\d+\.\d+)", text)
    assert match, f"runtime.txt should read python-X.Y, not {text!r}"
    return match.group(1)


def _unsatisfied(python: str) -> list[str]:
    """Pinned packages (as installed from the lock) whose Requires-Python excludes ``python`` (X.Y.Z)."""
    bad = []
    for name, version in _pins().items():
        installed = metadata.distribution(name)
        assert installed.version == version, f"{name}: the lock pins {version}, the venv has {installed.version}"
        requires = installed.metadata.get("Requires-Python")
        if requires and not SpecifierSet(requires).contains(python, prereleases=True):
            bad.append(f"{name}=={version} requires Python {requires}")
    return bad


def test_runtime_txt_names_the_python_the_lock_was_made_with():
    runtime = _runtime_python()
    assert runtime == f"{sys.version_info.major}.{sys.version_info.minor}", (
        "runtime.txt should name the Python that installed the lock (this venv's)")
    # repo2docker reads only X.Y and installs conda's newest X.Y.Z; check the patch release that made the lock
    # (a patch floor exists: soupsieve 4.1.2 needs >= 3.11.5)
    assert not _unsatisfied(f"{runtime}.{sys.version_info.micro}")


def test_repo2docker_default_python_would_fail():
    """Without runtime.txt repo2docker builds Python 3.10: the pins must say no, or the test above proves nothing."""
    assert any(b.startswith("numpy==") for b in _unsatisfied("3.10.12"))


def test_binder_files_are_at_the_root_and_generated_notebooks_are_not_committed():
    # repo2docker ignores root config files when a binder/ folder exists: requirements.txt must stay visible
    assert not (ROOT / "binder").exists() and not (ROOT / ".binder").exists()
    assert os.access(ROOT / "postBuild", os.X_OK)
    tracked = subprocess.run(["git", "ls-files", "chapters/*.ipynb", "book/*.ipynb"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()
    assert not tracked, f"postBuild makes these; don't commit them: {tracked}"
    ignored = subprocess.run(["git", "check-ignore", "-q", "chapters/large_memory.ipynb"], cwd=ROOT)
    assert ignored.returncode == 0, ".gitignore should cover the notebooks postBuild makes"


# --- the links on the built pages ------------------------------------------------------------------------------

def _launch_pages() -> dict[str, str]:
    """Every built page with a Binder launch button: docname -> the button's URL."""
    pages = {}
    for html in sorted(SITE.glob("**/*.html")):
        found = BINDER_HREF.findall(html.read_text(encoding="utf-8"))
        if found:
            pages[html.relative_to(SITE).with_suffix("").as_posix()] = unescape(found[0])
    return pages


def _urlpath(url: str) -> str:
    return parse_qs(urlparse(url).query)["urlpath"][0]


def _binder_base() -> str:
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    repo = config["repository"]["url"].removeprefix("https://github.com/").strip("/")
    return f"{config['launch_buttons']['binderhub_url'].rstrip('/')}/v2/gh/{repo}/{config['repository']['branch']}"


def test_binder_links_name_the_bad_repository_url():
    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    import binder_links

    base = binder_links.binder_base("https://mybinder.org/", "https://github.com/org/book.git", "main")
    assert base == "https://mybinder.org/v2/gh/org/book/main"
    assert binder_links.launch_url(base, "lab/tree/a b.ipynb").endswith("?urlpath=lab/tree/a%20b.ipynb")
    for bad in ("https://gitlab.com/org/book", "https://github.com/org"):
        with pytest.raises(ValueError, match="repository.url"):
            binder_links.binder_base("https://mybinder.org", bad, "main")


needs_site = pytest.mark.skipif(not (SITE / "index.html").exists(), reason="run `make book` first")


@needs_site
def test_every_chapter_launches_a_notebook_and_links_its_dashboard():
    pages = _launch_pages()
    chapters = sorted(p.stem for p in (ROOT / "chapters").glob("*.md"))
    assert {f"chapters/{c}" for c in chapters} <= set(pages), "every chapter has a launch button"
    for page, url in pages.items():
        assert url.startswith(_binder_base() + "?"), url  # the one repository URL of _config.yml
        assert _urlpath(url) == f"lab/tree/{page}.ipynb", url
    for chapter in chapters:
        html = (SITE / "chapters" / f"{chapter}.html").read_text(encoding="utf-8")
        links = DASHBOARD_HREF.findall(html)
        assert len(links) == 1, f"{chapter}: one 'Open the dashboard on Binder' link"
        assert unescape(links[0]).startswith(_binder_base() + "?")
        assert _urlpath(unescape(links[0])) == f"voila/render/dashboards/{chapter}.ipynb"
        assert (ROOT / "dashboards" / f"{chapter}.ipynb").exists()
        assert "Open the dashboard on Binder" in html


# --- a stand-in for the Binder image ---------------------------------------------------------------------------

def _binder_env(home: Path) -> dict[str, str]:
    """The environment of the image's user: its own HOME, the book's Python first on PATH, no config dir."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("JUPYTER", "JUPYTERLAB"))}
    env.update(HOME=str(home), PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}", PYDEVD_DISABLE_FILE_VALIDATION="1")
    return env


def _broken_notebook(path: Path) -> None:
    nb = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                           "language": "python"}})
    nb.cells = [nbformat.v4.new_markdown_cell("# A dashboard that fails"),
                nbformat.v4.new_code_cell(f"raise ValueError({BOOM!r})")]
    nbformat.write(nb, path)


class Lab:
    """A JupyterLab started the way the Binder image starts it."""

    def __init__(self, root: Path, base: str, token: str, log: Path):
        self.root, self.base, self.token, self.log = root, base, token, log

    def url(self, urlpath: str) -> str:
        return f"{self.base}/{urlpath}?token={self.token}"

    def api(self, method: str, path: str):
        req = urllib.request.Request(f"{self.base}/{path}", method=method,
                                     headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(req, timeout=30) as resp:
            body = resp.read()
        return json.loads(body) if body else None

    def reset(self) -> None:
        """Stop every kernel and forget the open tabs, so that the next test starts as a new student."""
        for kernel in self.api("GET", "api/kernels"):
            self.api("DELETE", f"api/kernels/{kernel['id']}")
        for workspace in self.api("GET", "lab/api/workspaces")["workspaces"]["ids"]:
            self.api("DELETE", f"lab/api/workspaces/{workspace}")


@pytest.fixture(scope="module")
def binder_lab(tmp_path_factory):
    scratch = tmp_path_factory.mktemp("binder")
    repo, home = scratch / "repo", scratch / "home"
    repo.mkdir(), home.mkdir()
    clone_files(repo)
    env = _binder_env(home)
    subprocess.run(["bash", "postBuild"], cwd=repo, env=env, check=True, timeout=300)
    _broken_notebook(repo / "broken_dashboard.ipynb")
    port, token = free_port(), secrets.token_hex(16)
    base = f"http://127.0.0.1:{port}"
    # as on Binder, except for the loopback address, the token, and allow_root (this machine runs tests as root)
    cmd = [str(BIN / "jupyter"), "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
           f"--IdentityProvider.token={token}", "--ServerApp.allow_root=True"]
    with server(cmd, cwd=repo, env=env, ready_url=f"{base}/api/status?token={token}", log=scratch / "jupyterlab.log",
                timeout=120):
        yield Lab(repo, base, token, scratch / "jupyterlab.log")


@pytest.fixture(scope="module")
def chromium():
    with browser() as b:
        yield b


def _run_all(page) -> None:
    """Run > Run All Cells, as a student would; retried if no cell was queued (a click lost while loading)."""
    for _ in range(3):
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).first.click()
        for _ in range(20):
            if any(p.strip() != "[ ]:" for p in page.evaluate(JS_PROMPTS)):
                return
            page.wait_for_timeout(500)
    raise AssertionError("Run All Cells queued no cell")


JS_KERNEL_IS_PYTHON = """() => Array.from(document.querySelectorAll('.jp-NotebookPanel .jp-KernelName'))
  .some(e => e.textContent.trim() === 'Python 3 (ipykernel)' || e.textContent.trim() === 'Python 3')"""
JS_PROMPTS = """() => Array.from(document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell'))
  .map(c => (c.querySelector('.jp-InputPrompt') || {}).textContent || '')"""


def _wait_until_run(page, timeout_s: float) -> list[str]:
    """Wait until every code cell shows an execution count ([n]); return the prompts."""
    deadline = time.time() + timeout_s
    while True:
        prompts = [p.strip() for p in page.evaluate(JS_PROMPTS)]
        if prompts and all(re.fullmatch(r"\[\d+\]:", p) for p in prompts):
            return prompts
        if time.time() > deadline:
            raise AssertionError(f"cells still running or not run after {timeout_s} s: {prompts}")
        page.wait_for_timeout(1000)


def _saved_notebook(page, path: Path, cells_run: int) -> nbformat.NotebookNode:
    """Save the notebook from JupyterLab and read it back from disk once every code cell's count is in it."""
    page.locator(".lm-MenuBar-itemLabel", has_text="File").first.click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Save Notebook$")).first.click()
    for _ in range(60):
        try:
            nb = nbformat.read(path, as_version=4)
        except ValueError:  # nbformat.reader.NotJSONError: JupyterLab is still writing the file
            page.wait_for_timeout(500)
            continue
        counts = [c.get("execution_count") for c in nb.cells if c.cell_type == "code"]
        if len(counts) == cells_run and all(counts):
            return nb
        page.wait_for_timeout(500)
    raise AssertionError(f"{path.name} was not saved with its outputs")


def _notifications(page) -> list[str]:
    return [t.strip() for t in page.locator(".Toastify__toast, .jp-Notification-Toast").all_inner_texts()]


def _move_first_slider(page) -> None:
    """Drag the first visible explorer slider and wait for its chart to redraw (the kernel answered)."""
    handle = page.locator(".db2book-explorer .widget-slider .noUi-handle:visible").first
    for _ in range(20):  # JupyterLab lays out off-screen cells lazily: scroll until the handle stays in view
        handle.scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        box = handle.bounding_box()
        if box and 0 < box["y"] < page.viewport_size["height"] - box["height"]:
            break
    else:
        raise AssertionError(f"the slider handle stays out of view: {box}")
    before = page.evaluate(CHART)
    track = handle.locator("xpath=ancestor::*[contains(@class, 'noUi-target')][1]").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    step = -40 if x > track["x"] + track["width"] / 2 else 40  # towards the middle: never stuck at an end
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + step, y, steps=5)
    page.mouse.up()
    page.wait_for_function(f"(b) => ({CHART})() !== b", arg=before, timeout=60_000)


def _open_and_run(lab: Lab, chromium, urlpath: str, shot: str, explorer: bool = True) -> nbformat.NotebookNode:
    """Open ``urlpath`` in JupyterLab, check it is a notebook, Run All; return the saved notebook."""
    page = chromium.new_page(viewport={"width": 1280, "height": 900})
    log = RequestLog(page)
    try:
        page.goto(lab.url(urlpath), wait_until="domcontentloaded")
        page.wait_for_selector(".jp-NotebookPanel .jp-Cell, .jp-FileEditor", timeout=120_000)
        assert page.locator(".jp-FileEditor").count() == 0, f"{urlpath} opened in the text editor"
        assert page.locator(".jp-NotebookPanel .jp-Cell").count() > 0
        # the notebook's own kernel starts by itself (no kernel picker): the toolbar names it
        page.wait_for_function(JS_KERNEL_IS_PYTHON, timeout=120_000)
        assert page.locator(".jp-Dialog").count() == 0, page.locator(".jp-Dialog").all_inner_texts()
        _run_all(page)
        prompts = _wait_until_run(page, timeout_s=400)
        nb = _saved_notebook(page, lab.root / urlpath.removeprefix("lab/tree/"), len(prompts))
        assert page.locator(".jp-OutputArea-output", has_text="Error displaying widget").count() == 0
        if explorer:
            controls = page.locator(".jp-OutputArea-output .jupyter-widgets.widget-slider")
            assert controls.count() >= 1, "no live ipywidgets control after Run All"
            _move_first_slider(page)
            page.locator(".db2book-explorer").first.scroll_into_view_if_needed()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{shot}.png"))
        # a quiet JupyterLab: no news pop-up, no update check, no "build recommended"
        assert page.locator(".jp-Dialog").count() == 0, page.locator(".jp-Dialog").all_inner_texts()
        assert not _notifications(page), _notifications(page)
        assert not log.outside(), log.outside()
        return nb
    finally:
        page.close()
        lab.reset()


def _errors(nb) -> list[str]:
    return [f"{o.get('ename')}: {o.get('evalue')}" for c in nb.cells if c.cell_type == "code"
            for o in c.get("outputs", []) if o.get("output_type") == "error"]


def _widget_outputs(nb) -> int:
    return sum("application/vnd.jupyter.widget-view+json" in o.get("data", {})
               for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))


LAUNCH_PAGES = sorted(_launch_pages()) if (SITE / "index.html").exists() else []


@pytest.mark.browser
@pytest.mark.slow
@needs_site
@pytest.mark.parametrize("page_name", LAUNCH_PAGES)
def test_launch_path_opens_a_notebook_that_runs(binder_lab, chromium, page_name):
    urlpath = _urlpath(_launch_pages()[page_name])
    chapter = page_name.startswith("chapters/")
    nb = _open_and_run(binder_lab, chromium, urlpath, f"jupyterlab_{page_name.replace('/', '_')}", explorer=chapter)
    assert not _errors(nb), _errors(nb)
    if chapter:
        assert _widget_outputs(nb) >= 1, "the explorer should be a live widget"


@pytest.mark.browser
@pytest.mark.slow
@needs_site
def test_downloaded_ipynb_runs_in_jupyterlab(binder_lab, chromium):
    """The page's "download .ipynb" file, saved outside the repository's folders, opens and runs."""
    downloads = binder_lab.root / "downloads"
    downloads.mkdir(exist_ok=True)
    shutil.copy(SITE / "_sources" / "chapters" / "fast_index_traversal.ipynb", downloads / "fast_index_traversal.ipynb")
    nb = _open_and_run(binder_lab, chromium, "lab/tree/downloads/fast_index_traversal.ipynb", "jupyterlab_downloaded")
    assert not _errors(nb), _errors(nb)
    assert _widget_outputs(nb) >= 1


@pytest.mark.browser
@pytest.mark.voila
@needs_site
def test_dashboard_opens_through_the_binder_voila_url(binder_lab, chromium):
    html = (SITE / "chapters" / "large_memory.html").read_text(encoding="utf-8")
    urlpath = _urlpath(unescape(DASHBOARD_HREF.findall(html)[0]))
    page = chromium.new_page(viewport={"width": 1280, "height": 900})
    log = RequestLog(page)
    try:
        page.goto(binder_lab.url(urlpath), wait_until="commit", timeout=60_000)  # Voila streams as it runs
        page.wait_for_selector(".db2book-chart-live svg", timeout=180_000)
        assert page.inner_text(".db2book-readout").strip(), "the readout is empty"
        _move_first_slider(page)
        page.screenshot(path=str(SHOTS / "binder_voila_large_memory.png"))
        assert "Traceback" not in page.content()
        errors = [e for e in log.errors() if "ERR_NAME_NOT_RESOLVED" not in e]
        assert not errors, errors
    finally:
        page.close()
        binder_lab.reset()


def _assert_short_message(page, log_text: str) -> None:
    text = page.inner_text("body")
    assert SHORT_MESSAGE in text, text[-500:]
    assert BOOM not in text and "Traceback" not in text and "ValueError" not in text, text[-500:]
    assert BOOM in log_text, "the server log should keep the traceback"


@pytest.mark.browser
@pytest.mark.voila
def test_voila_on_binder_hides_tracebacks(binder_lab, chromium):
    page = chromium.new_page()
    try:
        page.goto(binder_lab.url("voila/render/broken_dashboard.ipynb"), wait_until="commit", timeout=60_000)
        page.wait_for_selector(f"text={SHORT_MESSAGE}", timeout=120_000)
        _assert_short_message(page, binder_lab.log.read_text(errors="replace"))
    finally:
        page.close()
        binder_lab.reset()


@pytest.mark.browser
@pytest.mark.voila
def test_make_voila_hides_tracebacks(tmp_path, chromium):
    """Standalone Voila with the project's config (dashboards/jupyter-config, as `make voila` runs it)."""
    _broken_notebook(tmp_path / "broken_dashboard.ipynb")
    port = free_port()
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(ROOT / "dashboards" / "jupyter-config"),
               PYDEVD_DISABLE_FILE_VALIDATION="1")
    cmd = [str(BIN / "voila"), str(tmp_path / "broken_dashboard.ipynb"), "--no-browser", f"--port={port}",
           "--Voila.ip=127.0.0.1"]
    with server(cmd, cwd=tmp_path, env=env, ready_url=f"http://127.0.0.1:{port}/api", log=tmp_path / "voila.log"):
        page = chromium.new_page()
        try:
            page.goto(f"http://127.0.0.1:{port}/", wait_until="commit", timeout=60_000)
            page.wait_for_selector(f"text={SHORT_MESSAGE}", timeout=120_000)
            _assert_short_message(page, (tmp_path / "voila.log").read_text(errors="replace"))
        finally:
            page.close()
