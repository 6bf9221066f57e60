"""The class JupyterHub (classroom/jupyterhub_config.py): 5 students log in, pull the book, one runs a chapter.

JupyterHub 6.1 on loopback with the dummy authenticator and local process spawner (the config's trial
mode), configurable-http-proxy from `make node`, nbgitpuller from a local bare git repository. Every
process the hub started is stopped by PID at the end, whatever happens.
"""
from __future__ import annotations

import asyncio
import json
import os
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from urllib.parse import parse_qs, urlparse
from pathlib import Path

import jupytext
import pytest

from classroom.links import pull_link
from tools.procs import cmdline, descendants, rss_mb, stop
from tools.site import ROOT, free_port

pytestmark = [pytest.mark.slow]
STUDENTS = [f"student{n}" for n in range(1, 6)]
CHAPTER = "fast_index_traversal"  # the shortest chapter to execute
PROXY = ROOT / "node_modules" / ".bin" / "configurable-http-proxy"


class Hub:
    def __init__(self, url: str, token: str):
        self.url, self.token = url, token

    def api(self, method: str, path: str, body: dict | None = None, timeout: float = 60):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            text = resp.read().decode()
        return json.loads(text) if text.strip() else None


def _bare_repo(scratch: Path) -> Path:
    """A local bare repository holding the book's chapters and dashboards (what a teacher would push)."""
    work = scratch / "book-src"
    files = subprocess.run(["git", "ls-files", "chapters", "dashboards"], cwd=ROOT, text=True,
                           capture_output=True, check=True).stdout.split()
    for name in files:
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        (work / name).write_bytes((ROOT / name).read_bytes())
    git = ["git", "-c", "user.name=Teacher", "-c", "user.email=teacher@example.invalid"]
    subprocess.run(["git", "init", "-q", "-b", "main", str(work)], check=True)
    subprocess.run(git + ["add", "-A"], cwd=work, check=True)
    subprocess.run(git + ["commit", "-q", "-m", "the book"], cwd=work, check=True)
    bare = scratch / "db2book.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(bare)], check=True)
    return bare


def _run_in_kernel(ws_url: str, token: str, cells: list[str], timeout: float = 300) -> list[str]:
    """Execute ``cells`` in a running kernel over its websocket; return the errors (empty when all ran)."""
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    async def run() -> list[str]:
        conn = await websocket_connect(HTTPRequest(ws_url, headers={"Authorization": f"token {token}"}))
        session, errors = uuid.uuid4().hex, []
        try:
            for code in cells:
                msg_id = uuid.uuid4().hex
                conn.write_message(json.dumps({
                    "header": {"msg_id": msg_id, "username": "test", "session": session,
                               "msg_type": "execute_request", "version": "5.3"},
                    "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
                    "content": {"code": code, "silent": False, "store_history": False,
                                "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}}))
                while True:
                    raw = await asyncio.wait_for(conn.read_message(), timeout)
                    assert raw is not None, "the kernel's websocket closed"
                    msg = json.loads(raw)
                    if msg.get("parent_header", {}).get("msg_id") != msg_id:
                        continue
                    if msg["msg_type"] == "error":
                        errors.append(f"{msg['content']['ename']}: {msg['content']['evalue']}\n{code[:200]}")
                    if msg["msg_type"] == "execute_reply":
                        break
                if errors:
                    break
        finally:
            conn.close()
        return errors

    return asyncio.run(run())


def test_five_students_log_in_pull_the_book_and_run_a_chapter(tmp_path):
    assert PROXY.exists(), "configurable-http-proxy is missing: run `make node`"
    state, token = tmp_path / "hub", secrets.token_hex(16)
    port = free_port()
    env = {**os.environ, "DB2BOOK_HUB_STATE": str(state), "DB2BOOK_HUB_TRIAL": "1",
           "DB2BOOK_HUB_IP": "127.0.0.1", "DB2BOOK_HUB_PORT": str(port), "DB2BOOK_HUB_TOKEN": token,
           "DB2BOOK_HUB_API_PORT": str(free_port()), "DB2BOOK_HUB_PROXY_API_PORT": str(free_port()),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    env.pop("JUPYTER_CONFIG_DIR", None)
    bare = _bare_repo(tmp_path)
    log = open(tmp_path / "hub.log", "w")
    proc = subprocess.Popen([str(Path(sys.executable).parent / "jupyterhub"), "-f",
                             str(ROOT / "classroom" / "jupyterhub_config.py")],
                            cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    started: set[int] = set()
    hub = Hub(f"http://127.0.0.1:{port}", token)
    try:
        deadline = time.monotonic() + 90
        while True:
            assert proc.poll() is None, (tmp_path / "hub.log").read_text()[-3000:]
            try:
                hub.api("GET", "/hub/api/", timeout=5)
                break
            except (urllib.error.URLError, ConnectionError, OSError):
                assert time.monotonic() < deadline, "the hub did not answer in 90 s"
                time.sleep(1)
        hub.api("POST", "/hub/api/users", {"usernames": STUDENTS})
        t0 = time.monotonic()
        for user in STUDENTS:
            hub.api("POST", f"/hub/api/users/{user}/server")
        deadline = time.monotonic() + 240
        for user in STUDENTS:
            while not (hub.api("GET", f"/hub/api/users/{user}").get("servers", {}).get("", {}).get("ready")):
                assert time.monotonic() < deadline, f"{user}'s server was not ready in 240 s"
                time.sleep(1)
        ready_s = time.monotonic() - t0
        started |= set(descendants(proc.pid))

        # every student pulls the book through the link a teacher hands out
        for user in STUDENTS:
            link = pull_link(hub.url, bare.as_uri(), f"chapters/{CHAPTER}.md", user=user)
            api = link.replace("/git-pull?", "/git-pull/api?")
            req = urllib.request.Request(api, headers={"Authorization": f"token {token}"})
            with urllib.request.urlopen(req, timeout=180) as resp:
                stream = resp.read().decode()
            assert '"phase": "finished"' in stream, stream[-1000:]
            assert (state / "home" / user / "db2book" / "chapters" / f"{CHAPTER}.md").exists()
            assert parse_qs(urlparse(link).query)["urlpath"] == [f"lab/tree/db2book/chapters/{CHAPTER}.md"]

        # one student runs the chapter in their own server's kernel, in the pulled copy's folder
        user = STUDENTS[0]
        kernel = hub.api("POST", f"/user/{user}/api/kernels", {"name": "python3", "path": "db2book/chapters"})
        notebook = jupytext.read(state / "home" / user / "db2book" / "chapters" / f"{CHAPTER}.md")
        cells = [c.source for c in notebook.cells if c.cell_type == "code"]
        assert len(cells) >= 5
        ws = f"ws://127.0.0.1:{port}/user/{user}/api/kernels/{kernel['id']}/channels"
        errors = _run_in_kernel(ws, token, cells)
        assert not errors, errors
        started |= set(descendants(proc.pid))
        servers = [p for p in set(descendants(proc.pid)) if "jupyterhub-singleuser" in
                   cmdline(p)]
        assert len(servers) >= len(STUDENTS)
        memory = sorted(rss_mb(p) for p in servers)
        kernels = [p for p in set(descendants(proc.pid)) if "ipykernel" in
                   cmdline(p)]
        print(f"\n{len(STUDENTS)} servers ready in {ready_s:.0f} s (loaded machine); server RSS "
              f"{memory[0]:.0f}-{memory[-1]:.0f} MB; the chapter's kernel {sum(map(rss_mb, kernels)):.0f} MB; "
              f"hub {rss_mb(proc.pid):.0f} MB; "
              f"all told {sum(map(rss_mb, set(descendants(proc.pid)) | {proc.pid})):.0f} MB")
        for user in STUDENTS:
            hub.api("DELETE", f"/user/{user}/api/kernels/{kernel['id']}") if user == STUDENTS[0] else None
            hub.api("DELETE", f"/hub/api/users/{user}/server")
    finally:
        stop(proc, started)
        log.close()
