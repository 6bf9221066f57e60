"""The class JupyterHub's proxy, run on its own so that it outlives a restart of the hub.

JupyterHub starts configurable-http-proxy itself by default, and stops it (with every route to the students'
servers) when the hub stops; the next hub kills any proxy it finds left running (JupyterHub 6.1,
``ConfigurableHTTPProxy._check_previous_process``). A proxy started here instead keeps routing while the hub
restarts, so the students' open notebooks keep working, and the hub (``DB2BOOK_HUB_PROXY=external``, read by
``classroom/jupyterhub_config.py``) finds the routes again when it is back::

    .venv/bin/python -m classroom.hubproxy &
    DB2BOOK_HUB_PROXY=external .venv/bin/jupyterhub -f classroom/jupyterhub_config.py

Both read the same settings from the environment (``DB2BOOK_HUB_STATE``, ``DB2BOOK_HUB_IP``, ``DB2BOOK_HUB_PORT``,
``DB2BOOK_HUB_API_PORT``, ``DB2BOOK_HUB_PROXY_API_PORT``); the token between them is made here once and kept in
``$DB2BOOK_HUB_STATE/proxy_auth_token`` (readable by its owner only).
"""
from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PROXY = REPO / "node_modules" / ".bin" / "configurable-http-proxy"


def state_dir() -> Path:
    return Path(os.environ.get("DB2BOOK_HUB_STATE", os.getcwd()))


def public_ip() -> str:
    return os.environ.get("DB2BOOK_HUB_IP", "0.0.0.0")


def public_port() -> int:
    return int(os.environ.get("DB2BOOK_HUB_PORT", "8000"))


def hub_api_port() -> int:
    return int(os.environ.get("DB2BOOK_HUB_API_PORT", "8081"))  # JupyterHub's default hub_port


def proxy_api_port() -> int:
    return int(os.environ.get("DB2BOOK_HUB_PROXY_API_PORT", "8001"))  # JupyterHub's default proxy API


def token(create: bool = False) -> str:
    """The proxy's API token, from ``$DB2BOOK_HUB_STATE/proxy_auth_token`` (made when ``create``)."""
    path = state_dir() / "proxy_auth_token"
    if create and not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
    if not path.exists():
        raise SystemExit(f"{path} is missing: start the proxy first (python -m classroom.hubproxy)")
    return path.read_text().strip()


def command() -> list[str]:
    hub = f"http://127.0.0.1:{hub_api_port()}"
    return [str(PROXY), "--ip", public_ip(), "--port", str(public_port()),
            "--api-ip", "127.0.0.1", "--api-port", str(proxy_api_port()),
            "--error-target", f"{hub}/hub/error", "--log-level", "warn"]


def main() -> int:
    if not PROXY.exists():
        print(f"{PROXY} is missing: run `make node`", file=sys.stderr)
        return 1
    env = dict(os.environ, CONFIGPROXY_AUTH_TOKEN=token(create=True))
    cmd = command()
    os.execve(cmd[0], cmd, env)  # the proxy takes this process's id: stop it by that id


if __name__ == "__main__":
    raise SystemExit(main())
