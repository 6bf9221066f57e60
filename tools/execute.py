"""Execute the book's notebooks in parallel into the build's execution cache, before Sphinx reads them.

``python -m tools.execute [--jobs N]`` (``make book`` runs it first). Sphinx reads pages one at a time,
so myst-nb runs one kernel at a time; most of a notebook's time is its kernel and imports, not its
cells, so two kernels at once nearly halve the wall-clock time of a clean build on two cores. Each
notebook of ``_toc.yml`` that the cache lacks is executed exactly as myst-nb's ``cache`` mode would
(same reader, same working folder, no errors allowed, same timeout) and stored in the same
jupyter-cache, under the same code key (``book/_ext/exec_cache.py``); the build then takes every
notebook from the cache. A notebook that fails is not stored: the build runs it again and reports
its error, strictly. Prints one line per notebook with its execution time in seconds, wall-clock and
CPU (user + sys of the kernel and its client: what other work on a shared machine inflates least).
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "book" / "_ext"))

import exec_cache  # noqa: E402  (book/_ext is not a package)

CODE_CELL = "```{code-cell}"


def toc_notebooks(root: Path = ROOT) -> list[Path]:
    """The pages of ``_toc.yml`` that hold code cells (MyST notebooks), in the table's order."""
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    files = [toc["root"]] + [c["file"] for part in toc.get("parts", []) for c in part.get("chapters", [])]
    pages = [root / f"{f}.md" for f in files]
    return [p for p in pages if p.is_file() and CODE_CELL in p.read_text(encoding="utf-8")]


def config(root: Path = ROOT) -> dict:
    """The ``execute`` section of ``_config.yml`` (timeout, allow_errors, execute_notebooks)."""
    return yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8")).get("execute", {})


def read(path: Path):
    """The notebook as myst-nb's reader gives it to the build, with the book's MyST extensions, so that
    jupyter-cache's hash of it (code cells, their metadata, the kernel) is the build's."""
    from myst_nb.core.read import read_myst_markdown_notebook
    from myst_parser.config.main import MdParserConfig

    parse = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8")).get("parse", {})
    md_config = MdParserConfig(enable_extensions=set(parse.get("myst_enable_extensions", [])))
    return read_myst_markdown_notebook(path.read_text(encoding="utf-8"), config=md_config, add_source_map=True,
                                       path=path)


def _cpu_seconds() -> float:
    """User + sys CPU of this process and of the children it has reaped (the kernels)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _execute(path: str, timeout: int, allow_errors: bool):
    """Run one notebook in its own folder (in a worker process):
    (notebook, wall-clock seconds, CPU seconds of the kernel and its client, error text or None)."""
    from jupyter_cache.executors.utils import single_nb_execution

    nb = read(Path(path))
    cpu = _cpu_seconds()
    result = single_nb_execution(nb, cwd=str(Path(path).parent), timeout=timeout, allow_errors=allow_errors,
                                 meta_override=True)
    return nb, result.time, _cpu_seconds() - cpu, (result.exc_string or str(result.err)) if result.err else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=min(os.cpu_count() or 1, 4),
                    help="kernels at once (default: the CPU count, at most 4)")
    ap.add_argument("--build-dir", default=str(ROOT / "_build"), help="the build folder (default: _build)")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        ap.error(f"--jobs={args.jobs} is out of range; valid range is the integers >= 1")
    settings = config()
    if settings.get("execute_notebooks") != "cache":
        print(f"tools.execute: execute_notebooks is {settings.get('execute_notebooks')!r}, not 'cache': nothing to do")
        return 0
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    folder = (Path(settings["cache"]).resolve() if settings.get("cache")
              else Path(args.build_dir).resolve() / ".jupyter_cache")
    key = exec_cache.code_key(ROOT)
    kept = exec_cache.prepare(folder, key)
    cache = get_cache(str(folder))
    todo = []
    for path in toc_notebooks():
        try:
            cache.match_cache_notebook(read(path))
        except KeyError:
            todo.append(path)
    print(f"tools.execute: cache {key} {'kept' if kept else 'new'}; {len(todo)} notebook(s) to run, "
          f"{args.jobs} at a time", flush=True)
    failed = 0
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=min(args.jobs, len(todo) or 1),
                             mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {pool.submit(_execute, str(p), int(settings.get("timeout", 30)),
                               bool(settings.get("allow_errors", False))): p for p in todo}
        for future in as_completed(futures):
            path = futures[future].relative_to(ROOT)
            nb, seconds, cpu, error = future.result()
            if error:
                failed += 1
                print(f"tools.execute: {path} FAILED after {seconds:.2f} s (the build will run it again "
                      f"and report the error)", flush=True)
                continue
            cache.cache_notebook_bundle(CacheBundleIn(nb, str(futures[future]), data={"execution_seconds": seconds}),
                                        check_validity=False, overwrite=True)
            print(f"tools.execute: {path} executed in {seconds:.2f} s (CPU {cpu:.2f} s)", flush=True)
    print(f"tools.execute: done in {time.perf_counter() - start:.2f} s wall-clock", flush=True)
    return 0  # a failure is reported by the strict build that follows, with its traceback


if __name__ == "__main__":
    sys.exit(main())
