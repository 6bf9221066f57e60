"""Each student's memory on a class JupyterHub with local processes: ``python -m classroom.watch [--limit 400M]``.

The local process spawners (``LocalProcessSpawner``, ``SimpleLocalProcessSpawner``) do not enforce
``Spawner.mem_limit``: a student's server and kernels can grow until the machine's out-of-memory killer ends
some process, perhaps another student's. Container and systemd spawners (DockerSpawner, KubeSpawner,
SystemdSpawner) do enforce it. On a single server with local processes, a teacher watches instead: this lists
every student's processes (the server and its kernels, found by the ``JUPYTERHUB_USER`` JupyterHub puts in their
environment) with their memory, and names those over the limit and what to do. ``--every 30`` repeats it.
Memory is the proportional set size (shared libraries counted once across all students); reading another
user's processes needs root, as a class server's teacher has.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import re
import time
from pathlib import Path

from tools.procs import cmdline, pss_mb

UNITS = {"": 1 / 2**20, "K": 1 / 1024, "M": 1, "G": 1024, "T": 1024**2}


def parse_mb(limit: str) -> float:
    """JupyterHub's memory notation (``400M``, ``1G``, bytes) in MB."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)B?\s*", limit.upper())
    if not m:
        raise ValueError(f"memory limit {limit!r}: write it as 400M or 1G")
    return float(m.group(1)) * UNITS[m.group(2)]


def student_processes() -> dict[str, list[int]]:
    """user -> the processes whose environment names that JupyterHub user (servers and kernels)."""
    out: dict[str, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            for var in (entry / "environ").read_bytes().split(b"\0"):
                if var.startswith(b"JUPYTERHUB_USER="):
                    out.setdefault(var.split(b"=", 1)[1].decode(), []).append(int(entry.name))
                    break
    return out


def report(limit_mb: float) -> tuple[list[str], list[str]]:
    """Lines for every student (most memory first), and the names of those over ``limit_mb``."""
    rows = []
    for user, pids in student_processes().items():
        kernels = [p for p in pids if "ipykernel" in cmdline(p)]
        rows.append((sum(pss_mb(p) for p in pids), user, len(kernels)))
    lines, over = [], []
    for mb, user, n in sorted(rows, reverse=True):
        line = f"{user}: {mb:.0f} MB ({n} kernel{'s' if n != 1 else ''})"
        if mb > limit_mb:
            over.append(user)
            line += (f"  OVER the {limit_mb:.0f} MB limit: ask {user} to save, then Kernel > Shut Down All "
                     f"Kernels; or stop the server from the hub's Admin page (saved files are kept)")
        lines.append(line)
    return lines, over


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", default=os.environ.get("DB2BOOK_HUB_MEM", "400M"),
                        help="memory per student, as Spawner.mem_limit (default $DB2BOOK_HUB_MEM or 400M)")
    parser.add_argument("--every", type=float, default=0, help="repeat every this many seconds")
    args = parser.parse_args(argv)
    limit = parse_mb(args.limit)
    while True:
        lines, over = report(limit)
        print(time.strftime("%H:%M:%S"), f"{len(lines)} students, {len(over)} over {args.limit}")
        print("\n".join(lines) if lines else "no student servers running")
        if not args.every:
            return 1 if over else 0
        time.sleep(args.every)


if __name__ == "__main__":
    raise SystemExit(main())
