"""Faults a class meets, injected by process id on loopback (``tests/test_faults.py``, the teacher's guide's
"When something fails in class" figures): a class's Voila server started, stopped and started again on the same
port, its kernels found and killed, and the pool's warmth read from the processes' CPU use."""
from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from tools.classload import kernels
from tools.procs import cmdline, cpu_s, descendants
from tools.site import ROOT

#: JavaScript: the fault banner's kind ("kernel", "server", "server-back") and text, or null.
BANNER = ("() => { const b = document.getElementById('db2book-fault');"
          " return b ? {fault: b.dataset.fault, text: b.innerText} : null; }")
#: JavaScript: the kernel id the page was served with.
KERNEL_ID = "() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"


class ClassVoila:
    """``make voila NOTEBOOK=... CLASS=n`` on a loopback port that stays the same across restarts."""

    def __init__(self, notebook: Path, pool: int, port: int, log: Path, extra_args: tuple[str, ...] = (),
                 env: dict[str, str] | None = None):
        self.notebook, self.pool, self.port, self.log = notebook, pool, port, log
        self.extra_args = extra_args
        self.env = dict(os.environ, JUPYTER_CONFIG_DIR=str(ROOT / "dashboards" / "jupyter-config"),
                        PYDEVD_DISABLE_FILE_VALIDATION="1", PYTHONPATH=str(ROOT), **(env or {}))
        self.env.pop("DB2BOOK_SVG_SERVER", None)
        self.proc: subprocess.Popen | None = None
        self.seen: set[int] = set()  # every process this server started, to stop any left behind

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> float:
        """Start the server; returns the time it started (``time.monotonic``)."""
        cmd = [str(Path(sys.executable).parent / "voila"), str(self.notebook), "--no-browser", f"--port={self.port}",
               "--Voila.ip=127.0.0.1", "--Voila.port_retries=0",
               f"--VoilaConfiguration.default_pool_size={self.pool}",
               "--VoilaConfiguration.multi_kernel_manager_class=classroom.voila_pool.ClassKernelManager",
               *self.extra_args]
        self._fills = self._log_fills()
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(cmd, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                         start_new_session=True)
        return time.monotonic()

    def _log_fills(self) -> int:
        """How often the server's log has said "Kernel pool of ... is filled" (every pool task has its kernel)."""
        return self.log.read_text(errors="replace").count("] Kernel pool of ") if self.log.exists() else 0

    def kernels(self) -> list[int]:
        return kernels(self.proc.pid) if self.proc else []

    def kernel_pid(self, kernel_id: str) -> int | None:
        return next((k for k in self.kernels() if f"kernel-{kernel_id}.json" in cmdline(k)), None)

    def wait_warm(self, timeout: float = 600.0, kernels_at_least: int | None = None) -> float:
        """Wait until the port answers, the pool's kernels run, Voila's log says the pool is filled, and the
        server's CPU use has settled (every pooled kernel has run the dashboard, as
        ``tools.classload.class_server`` judges it); returns the time (``time.monotonic``) of the first quiet
        sample. ``self.filled_at`` is when the log was first seen to say so."""
        want = self.pool if kernels_at_least is None else kernels_at_least
        deadline = time.monotonic() + timeout
        while True:
            assert self.proc.poll() is None, f"voila exited: {self.log.read_text(errors='replace')[-2000:]}"
            # knock on the port, not on the page: every request for the page takes a kernel from the pool
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=5):
                if len(self.kernels()) >= want:
                    break
            assert time.monotonic() < deadline, f"voila's pool of {want} did not start in {timeout} s"
            time.sleep(0.5)
        while self._log_fills() <= self._fills:
            assert self.proc.poll() is None, f"voila exited: {self.log.read_text(errors='replace')[-2000:]}"
            assert time.monotonic() < deadline, f"voila's pool of {want} was not filled in {timeout} s"
            time.sleep(0.25)
        self.filled_at = time.monotonic()
        last, t_last = cpu_s([self.proc.pid, *descendants(self.proc.pid)]), time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(1.5)
            now, t_now = cpu_s([self.proc.pid, *descendants(self.proc.pid)]), time.monotonic()
            if now - last < 0.2 * (t_now - t_last):  # under a fifth of a core: nothing is warming
                self.seen |= set(descendants(self.proc.pid))
                return t_last
            last, t_last = now, t_now
        raise AssertionError(f"voila's pool did not settle in {timeout} s")

    def terminate(self, timeout: float = 60.0) -> list[int]:
        """SIGTERM the server alone (by its PID), as a teacher's Ctrl-C or ``kill`` does, and wait for it to exit.
        Returns the processes it left running (none, if it shut its kernels and chart engine down)."""
        self.seen |= set(descendants(self.proc.pid))
        os.kill(self.proc.pid, signal.SIGTERM)
        self.proc.wait(timeout=timeout)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            left = [p for p in self.seen if _alive(p)]
            if not left:
                return []
            time.sleep(0.25)
        return left

    def stop(self) -> None:
        """Stop everything this server ever started (by PID), whatever state it is in."""
        if self.proc is not None:
            self.seen |= set(descendants(self.proc.pid))
            if self.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGTERM)
                try:
                    self.proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(self.proc.pid, signal.SIGKILL)
                    self.proc.wait(timeout=10)
        for pid in self.seen:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie counts as gone)."""
    with contextlib.suppress(OSError):
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        return state != "Z"
    return False


def kill(pid: int) -> None:
    """SIGKILL one process (a kernel: as the out-of-memory killer or a crash ends it)."""
    os.kill(pid, signal.SIGKILL)


def main(argv: list[str] | None = None) -> int:
    """``python -m tools.faults --class 30``: how long a class's Voila server takes to come back warm after a
    restart (stopped by SIGTERM, started again on the same port), as the teacher's guide quotes it."""
    import argparse
    import tempfile

    from tools.classload import class_pool
    from tools.procs import pss_mb
    from tools.site import free_port

    parser = argparse.ArgumentParser(description=main.__doc__.split("\n")[0])
    parser.add_argument("--class", dest="students", type=int, default=30, help="students (the pool is n + 2)")
    parser.add_argument("--notebook", default="zhyperlink.ipynb", help="a dashboard in dashboards/")
    args = parser.parse_args(argv)
    pool = class_pool(args.students)
    log = Path(tempfile.mkdtemp(prefix="db2book-faults-")) / "voila.log"
    server = ClassVoila(ROOT / "dashboards" / args.notebook, pool, free_port(), log)
    try:
        t0 = server.start()
        first = server.wait_warm(timeout=1800) - t0
        first_filled = server.filled_at - t0
        kernels_mb = sum(pss_mb(k) for k in server.kernels())
        t_stop = time.monotonic()
        left = server.terminate()
        stopped = time.monotonic() - t_stop
        t1 = server.start()
        again = server.wait_warm(timeout=1800) - t1
        again_filled = server.filled_at - t1
        with open("/proc/loadavg") as f:
            load = f.read().split()[0]
        print(f"class of {args.students} (pool {pool}), {args.notebook}: first start: pool filled "
              f"{first_filled:.0f} s, "
              f"warm {first:.0f} s; stopped in {stopped:.1f} s ({len(left)} processes left); restarted: pool filled "
              f"{again_filled:.0f} s, warm {again:.0f} s; "
              f"kernels {kernels_mb:.0f} MB PSS in all; load average {load}")
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
