"""Build times: a clean build, a rebuild after an edit, on a fresh copy of the sources (bench/README.md, 1)."""
from __future__ import annotations

import fnmatch
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


from bench.common import BIN, NO_GOAL, ROOT, Rows, loadavg
from bench.pages import CHAPTER, PAGES


# --- 1. build times -----------------------------------------------------------------------


def _ignored_patterns() -> list[str]:
    pats = [".git", ".git/", "bench/results/"]
    gi = ROOT / ".gitignore"
    if gi.exists():
        for line in gi.read_text().splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                pats.append(line)
    return pats


def _is_ignored(rel: str, is_dir: bool, pats: list[str]) -> bool:
    name = rel.rsplit("/", 1)[-1]
    for pat in pats:
        if pat.endswith("/"):
            if not is_dir:
                continue
            pat = pat[:-1]
        target = rel if "/" in pat else name
        if fnmatch.fnmatch(target, pat.lstrip("/")):
            return True
    return False


def copy_sources(dest: Path) -> int:
    """Copy the repository's sources (what git would track: everything the .gitignore does not
    exclude, so no _build, .venv or caches) into ``dest``; returns the number of files."""
    pats = _ignored_patterns()
    count = 0
    for dirpath, dirnames, filenames in os.walk(ROOT):
        rel_dir = os.path.relpath(dirpath, ROOT)
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        dirnames[:] = [d for d in dirnames if not _is_ignored(rel_dir + d, True, pats)]
        for fn in filenames:
            rel = rel_dir + fn
            if _is_ignored(rel, False, pats):
                continue
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(os.path.join(dirpath, fn), target)
            count += 1
    return count


def _build_env(src: Path) -> dict:
    return dict(os.environ, DB2BOOK_BUILD="1", PYDEVD_DISABLE_FILE_VALIDATION="1",
                JUPYTER_CONFIG_DIR=str(src / "dashboards" / "jupyter-config"))


def _timed(cmd: list[str], src: Path) -> tuple[float, float, str]:
    """Run one build step in ``src``: (wall-clock s, CPU s of it and every process it waited for, its output).

    The CPU time (user + sys, from the rusage of reaped children: the kernels too) is what other
    work on a shared machine inflates least."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=src, env=_build_env(src), capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout)[-600:]
        raise RuntimeError(f"{' '.join(Path(c).name for c in cmd[:3])} exited {proc.returncode}: {tail}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu, proc.stdout + proc.stderr


def _jupyter_book(args: list[str], src: Path) -> tuple[float, float, str]:
    """``make book-fast`` (no args) or the build half of ``make book`` (``--all``), in ``src``."""
    return _timed([str(BIN / "jupyter-book"), "build", *args, "-W", "-n", "--keep-going", str(src)], src)


def _make_book(src: Path, jobs: int) -> tuple[float, float, str]:
    """What ``make book`` runs: the notebooks into the execution cache, ``jobs`` at a time, then the strict build."""
    t1, c1, out1 = _timed([sys.executable, "-m", "tools.execute", "--jobs", str(jobs)], src)
    t2, c2, out2 = _jupyter_book(["--all"], src)
    return t1 + t2, c1 + c2, out1 + out2


#: tools.execute's line for each notebook it ran, and myst-nb's for one it ran itself.
EXECUTED = re.compile(r"tools\.execute: (\S+) executed in ([\d.]+) s \(CPU ([\d.]+) s\)"
                      r"|(\S+\.md): Executed notebook in ([\d.]+) seconds")


def executed(log: str, src: Path) -> dict[str, tuple[float, float | None]]:
    """Per notebook executed during a build, from its log: page -> (wall-clock s, CPU s or None).
    myst-nb's own line (a notebook the build ran itself) gives no CPU time."""
    out = {}
    for m in EXECUTED.finditer(log):
        page, secs, cpu = (m.group(1), m.group(2), m.group(3)) if m.group(1) else (m.group(4), m.group(5), None)
        name = (Path(page).resolve().relative_to(src.resolve()) if Path(page).is_absolute() else Path(page))
        out[name.with_suffix("").as_posix()] = (float(secs), None if cpu is None else float(cpu))
    return out


def _edit_code_cell(page: Path) -> None:
    """Append a comment to the last code cell of a MyST page: its notebook must run again."""
    text = page.read_text(encoding="utf-8")
    cell = text.rindex("```{code-cell}")
    close = text.index("\n```", cell + 3)
    page.write_text(text[:close] + "\n# edited by bench/run.py" + text[close:], encoding="utf-8")


def _check_built(html: Path) -> None:
    """A build that "succeeds" without its pages or charts would time the wrong thing."""
    missing = [p for p in PAGES if not (html / f"{p}.html").exists()]
    if missing:
        raise RuntimeError(f"the build wrote no {', '.join(missing)}")
    if "db2book-chart" not in (html / f"{CHAPTER}.html").read_text(encoding="utf-8"):
        raise RuntimeError(f"the built {CHAPTER}.html draws no chart (notebook not executed?)")


BUILD_JOBS = 2  # make book's JOBS
EDITED = "chapters/zhyperlink"  # the chapter the rebuild rows edit


def bench_build(rows: Rows) -> None:
    clean = f"build: clean (fresh copy; make book: notebooks {BUILD_JOBS} at a time, then --all)"
    clean_cpu = "build: clean, CPU time (user+sys, every process)"
    again = "build: make book again, nothing changed (every page read, notebooks from the cache)"
    touched = f"build: make book-fast after touching one chapter ({EDITED}.md)"
    edited = f"build: make book-fast after editing a code cell of {EDITED}.md (its notebook runs again)"
    names = [clean, clean_cpu, again, touched, edited]
    with tempfile.TemporaryDirectory(prefix="db2book-bench-") as tmp:
        src = Path(tmp) / "book-src"
        try:
            n = copy_sources(src)
            load = loadavg()
            elapsed, cpu, log = _make_book(src, BUILD_JOBS)
            _check_built(src / "_build" / "html")
            note = f"{n} source files; 1-min load average {load} before, {loadavg()} after, on {os.cpu_count()} CPUs"
            rows.measured(clean, elapsed, "s", "<= 60 s", note=note)
            rows.measured(clean_cpu, cpu, "s", note="user + sys of the build and its kernels: load inflates it less")
            for page, (secs, cpu) in sorted(executed(log, src).items()):
                rows.measured(f"build: notebook execution, CPU (clean build): {page}", cpu, "s",
                              note=f"user + sys of its kernel and client; wall-clock {secs:.1f} s, "
                                   f"{BUILD_JOBS} kernels at a time")
        except Exception as exc:  # noqa: BLE001 - report, never crash
            rows.failed(names, "s", NO_GOAL, exc)
            return
        steps = [(again, lambda: _make_book(src, BUILD_JOBS), NO_GOAL),
                 (touched, lambda: ((src / f"{EDITED}.md").touch(), _jupyter_book([], src))[1], "<= 15 s"),
                 (edited, lambda: (_edit_code_cell(src / f"{EDITED}.md"), _jupyter_book([], src))[1], "<= 15 s")]
        for name, step, goal in steps:
            try:
                time.sleep(1.1)  # a new mtime on file systems with one-second resolution
                elapsed, cpu, log = step()
                _check_built(src / "_build" / "html")
                ran = executed(log, src)
                rows.measured(name, elapsed, "s", goal, note=f"CPU {cpu:.1f} s; notebooks run: "
                              + (", ".join(f"{p} {s:.1f} s" for p, (s, _) in ran.items()) or "none"))
            except Exception as exc:  # noqa: BLE001
                rows.failed(name, "s", goal, exc)
