"""JupyterHub for one class on one server, with the book installed (JupyterHub 6.1, configurable-http-proxy 5.3).

Start it from a copy of the repository, after ``make venv node``::

    .venv/bin/jupyterhub -f classroom/jupyterhub_config.py

Students log in with their system accounts (PAM), get a Jupyter server running the book's ``.venv``
(so every student has the same versions), and open chapters or assignments through nbgitpuller links
(``python -m classroom.links``). Settings come from the environment so that one file serves both the
class and the test (``tests/test_jupyterhub.py``):

``DB2BOOK_HUB_STATE``  folder for the hub's database, cookie secret and proxy token (default: the folder the
                       hub is started in, as JupyterHub itself does; a class server names a folder of its own)
``DB2BOOK_HUB_IP``, ``DB2BOOK_HUB_PORT``  where students connect (default ``0.0.0.0:8000``; put TLS in front)
``DB2BOOK_HUB_MEM``    memory limit per student server (default ``400M``; see the teacher's guide for the figures)
``DB2BOOK_HUB_TRIAL``  ``1``: any user name logs in (dummy authenticator), servers run as the hub's own user
                       in ``$DB2BOOK_HUB_STATE/home/<user>``: a trial run or a test, never a real class
``DB2BOOK_HUB_TOKEN``  a token for an admin service (``db2book-admin``) that scripts and the test use
``DB2BOOK_HUB_PROXY``  ``external``: the proxy runs on its own (``python -m classroom.hubproxy``), so a restart of the
                       hub leaves it routing to the students' servers (see the teacher's guide, "When something
                       fails in class"); otherwise the hub starts and stops the proxy itself

Students' servers outlive the hub (``cleanup_servers = False``): stopping or restarting the hub leaves them
running, and the hub finds them again from its database when it is back.
"""
import os
import sys
from pathlib import Path

c = get_config()  # noqa: F821 (JupyterHub provides it)

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent  # the book's .venv: hub, single-user servers and kernels share it
STATE = Path(os.environ.get("DB2BOOK_HUB_STATE", os.getcwd()))
STATE.mkdir(parents=True, exist_ok=True)
TRIAL = os.environ.get("DB2BOOK_HUB_TRIAL") == "1"

c.JupyterHub.ip = os.environ.get("DB2BOOK_HUB_IP", "0.0.0.0")
c.JupyterHub.port = int(os.environ.get("DB2BOOK_HUB_PORT", "8000"))
c.JupyterHub.hub_ip = "127.0.0.1"
if "DB2BOOK_HUB_API_PORT" in os.environ:
    c.JupyterHub.hub_port = int(os.environ["DB2BOOK_HUB_API_PORT"])
if "DB2BOOK_HUB_PROXY_API_PORT" in os.environ:
    c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{os.environ['DB2BOOK_HUB_PROXY_API_PORT']}"
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(STATE / "jupyterhub.pid")
# configurable-http-proxy from the repository's package-lock.json (`make node`), not a global install
c.ConfigurableHTTPProxy.command = [str(REPO / "node_modules" / ".bin" / "configurable-http-proxy")]
c.ConfigurableHTTPProxy.pid_file = str(STATE / "proxy.pid")
if os.environ.get("DB2BOOK_HUB_PROXY") == "external":  # started by classroom/hubproxy.py; outlives the hub
    sys.path.insert(0, str(REPO))
    from classroom import hubproxy

    c.ConfigurableHTTPProxy.should_start = False
    c.ConfigurableHTTPProxy.auth_token = hubproxy.token()
    c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{hubproxy.proxy_api_port()}"
    c.JupyterHub.hub_port = hubproxy.hub_api_port()
# a restart of the hub (a teacher's, or a crash) leaves the students' servers running
c.JupyterHub.cleanup_servers = False

# Every student server runs the book's environment and opens JupyterLab.
c.Spawner.cmd = [str(BIN / "jupyterhub-singleuser")]
c.Spawner.default_url = "/lab"
c.Spawner.environment = {"PYDEVD_DISABLE_FILE_VALIDATION": "1"}
# Enforced by container and systemd spawners (DockerSpawner, KubeSpawner, SystemdSpawner), NOT by the local
# process spawners used here: watch the students' memory with `python -m classroom.watch` instead.
c.Spawner.mem_limit = os.environ.get("DB2BOOK_HUB_MEM", "400M")
c.Spawner.start_timeout = 120  # 30 logging in at once on a small server take a while
c.Spawner.http_timeout = 120
c.JupyterHub.concurrent_spawn_limit = 10  # a class logs in at once; queue the rest instead of thrashing

if TRIAL:
    c.JupyterHub.authenticator_class = "dummy"
    c.JupyterHub.spawner_class = "jupyterhub.spawner.SimpleLocalProcessSpawner"
    c.SimpleLocalProcessSpawner.home_dir_template = str(STATE / "home" / "{username}")
    c.Authenticator.allow_all = True
    if os.geteuid() == 0:
        c.Spawner.args = ["--ServerApp.allow_root=True"]
else:
    c.JupyterHub.authenticator_class = "pam"  # students' system accounts
    c.Authenticator.allow_all = True  # or list the class: c.Authenticator.allowed_users = {...}

if os.environ.get("DB2BOOK_HUB_TOKEN"):
    c.JupyterHub.services = [{"name": "db2book-admin", "api_token": os.environ["DB2BOOK_HUB_TOKEN"]}]
    c.JupyterHub.load_roles = [{
        "name": "db2book-admin",
        "scopes": ["admin:users", "admin:servers", "list:users", "read:users", "tokens", "access:servers"],
        "services": ["db2book-admin"],
    }]
