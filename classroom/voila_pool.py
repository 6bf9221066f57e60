"""The kernel manager of a class's Voila server (``make voila NOTEBOOK=... CLASS=30``).

Voila 0.5.13's pre-heated pool (``voila/voila_kernel_manager.py``) starts ``pool_size`` kernels and
runs the dashboard in each, so a student's request is answered from a kernel that is already warm. But
every kernel it hands out is replaced ``fill_delay`` (1 s) later: a class of 30 arriving at once sets
off 30 kernel starts, each several CPU-seconds of imports and a first chart, on the same cores that are
serving the students' first slider moves. Measured on this 2-core machine (loaded by other work), 10
students got their pre-rendered page in 0.6 s but then waited 9 s for a slider update.

This manager is the base class that Voila's pool decorates (``VoilaConfiguration.multi_kernel_manager_class``),
and it changes only when pool kernels start, and what runs beside them:

* **Refills wait for the class to settle.** A replacement kernel starts once no student has taken a
  kernel for :attr:`ClassKernelManager.quiet_s` seconds (5 minutes: the lecture has started), and one at
  a time (each waits until the one before it has run the dashboard). A refill starts at once when fewer
  than :attr:`ClassKernelManager.low_water` warm kernels are left, so a late student never waits for the
  quiet; ``make voila CLASS=n`` starts n + 2 kernels, so a whole class arriving leaves two spare.
* **The first kernel warms alone,** so the chart at the default settings is drawn once into the shared
  SVG cache and the rest of the pool reads it.
* **One chart engine for the class** (:mod:`widgets.svgserver`, a worker per core) instead of one per
  kernel: the kernels find it through ``DB2BOOK_SVG_SERVER``.
* **Lighter kernels:** :mod:`widgets.dashboard_kernel` runs first in each pool kernel.
* **A kernel that dies is not restarted empty.** Jupyter's default restarts a dead kernel (killed, crashed,
  out of memory) as a bare Python process: it no longer holds the dashboard, so the student's controls stop
  answering while it holds memory. Here the server reports the kernel dead instead (the page then says so in
  words and asks for a reload: ``dashboards/jupyter-config/share/voila/templates/db2book``), forgets it, and, if
  it was still waiting in the pool, takes it out of the pool and starts a replacement (paced as any refill), so
  no student is handed a dead kernel.

It reads Voila's own ``_pools`` to count warm kernels, tells the pool's kernels by ``VOILA_PREHEAT=True``
in their environment, and replaces ``voila.voila_kernel_manager.wait_before`` (the pause before a refill)
with :func:`_paced_wait_before`, because a refill's work begins in the server's own process before any
kernel start: all as in Voila 0.5.13, which requirements.txt pins.
"""
from __future__ import annotations

import asyncio
import contextlib
import importlib.metadata
import os
import subprocess
import sys
import time

import voila.voila_kernel_manager as _vkm
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Float, Int

from widgets.svgserver import SERVER_ENV

#: The Voila release line whose private pool this module reads and paces (``_pools``, ``wait_before``,
#: ``_initialize``): another line may rename them, and this module must then stop, not quietly stop pacing.
VOILA_LINE = "0.5."


def check_voila(version: str | None = None, module=_vkm) -> None:
    """Fail loudly when the installed Voila is not the one this module replaces parts of: RuntimeError naming
    the version found (or the missing private name) and the line it was written for."""
    version = version or importlib.metadata.version("voila")
    if not version.startswith(VOILA_LINE):
        raise RuntimeError(f"classroom.voila_pool reads Voila {VOILA_LINE}x's private kernel pool, but Voila "
                           f"{version} is installed: check voila/voila_kernel_manager.py (_pools, wait_before, "
                           f"_initialize) and update this module, or install the version requirements.txt pins")
    for name in ("wait_before", "voila_kernel_manager_factory"):
        if not hasattr(module, name):
            raise RuntimeError(f"classroom.voila_pool: voila.voila_kernel_manager has no {name!r} (Voila {version}); "
                               "the pool this module paces has changed shape")


check_voila()
_voila_wait_before = _vkm.wait_before
_CLASS_MANAGERS: list["ClassKernelManager"] = []


async def _paced_wait_before(delay: float, aw):
    """Voila's ``wait_before`` (the pause before a refill), then the class manager's turn for the refill.

    Voila runs a refill as ``wait_before(fill_delay, self._initialize(...))``, and ``_initialize`` prepares
    the page's renderer in the server's own process before it starts the kernel: measured with 30 students
    arriving at once, 30 such preparations a second later held the server up for about 30 s (first render
    p95 38 s; 4.6 s with no refills). So the turn is taken before any of the refill's work. The first fill
    (``delay`` 0) is not paced here.
    """
    manager = _CLASS_MANAGERS[0] if _CLASS_MANAGERS else None
    if manager is None or not delay:
        return await _voila_wait_before(delay, aw)
    await asyncio.sleep(delay)
    release = await manager._refill_turn()
    try:
        result = await aw
    except BaseException:
        release()
        raise
    asyncio.get_event_loop().create_task(manager._release_when_warm(result["kernel_id"], release))
    return result


#: Code each pool kernel runs before the dashboard (IPython's ``exec_lines``).
KERNEL_PREPARE = "import widgets.dashboard_kernel as _db2book_kernel; _db2book_kernel.prepare()"


class ClassKernelManager(AsyncMappingKernelManager):
    """Voila's kernel manager for a class: paced pool refills and one shared chart engine."""

    quiet_s = Float(300.0, config=True, help="Seconds without a kernel taken before the pool refills")
    low_water = Int(2, config=True, help="Refill at once when fewer warm kernels than this are left")
    warm_timeout_s = Float(180.0, config=True, help="Longest wait for a refill kernel to run the dashboard")
    svg_workers = Int(0, config=True, help="Drawing processes of the shared chart engine (0: one per core)")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._pool_starts = 0
        self._first_fill = 1
        self._last_take = 0.0
        self._refill_lock = asyncio.Lock()
        self._first_warm = asyncio.Event()
        self._svg_service = self._start_svg_service()
        _CLASS_MANAGERS[:] = [self]
        _vkm.wait_before = _paced_wait_before

    # --- the shared chart engine ---------------------------------------------------------------
    def _start_svg_service(self) -> subprocess.Popen | None:
        if os.environ.get(SERVER_ENV):
            return None  # one is already running for this server (set by whoever started it)
        args = [sys.executable, "-m", "widgets.svgserver"]
        if self.svg_workers:
            args += ["--workers", str(self.svg_workers)]
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
        url = proc.stdout.readline().strip()
        if not url.startswith("http://127.0.0.1:"):
            proc.kill()
            raise RuntimeError(f"the chart service (widgets.svgserver) did not start: {url!r}")
        os.environ[SERVER_ENV] = url  # Voila copies its environment into every kernel it starts
        self.log.info("Chart service for the class at %s", url)
        return proc

    def _stop_svg_service(self) -> None:
        if self._svg_service is not None and self._svg_service.poll() is None:
            self._svg_service.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._svg_service.wait(timeout=10)
            if self._svg_service.poll() is None:
                self._svg_service.kill()

    async def shutdown_all(self, *args, **kwargs):
        try:
            return await super().shutdown_all(*args, **kwargs)
        finally:
            self._stop_svg_service()

    # --- paced pool starts ------------------------------------------------------------------------
    def _pool_map(self) -> dict:
        """Voila's pool (notebook -> list of kernel start tasks), checked: a RuntimeError, not a silent empty
        pool, when Voila keeps it under another name or shape."""
        if not hasattr(self, "fill_if_needed"):
            return {}  # Voila did not wrap this manager in its pool (no pre-heated kernels): nothing is pooled
        pools = getattr(self, "_pools", None)
        if not isinstance(pools, dict) or not all(isinstance(p, list) for p in pools.values()):
            raise RuntimeError(f"classroom.voila_pool: Voila's pool is not a dict of lists under _pools "
                               f"(found {type(pools).__name__}); the pre-heated pool has changed shape")
        return pools

    def _warm_in_pool(self) -> int:
        """Kernels in Voila's pool that have started and wait for a student."""
        pools = self._pool_map()
        return sum(1 for pool in pools.values() for task in pool if task.done() and not task.exception())

    async def start_kernel(self, *args, **kwargs):
        kernel_id = await self._start_kernel(*args, **kwargs)
        restarter = getattr(self.get_kernel(kernel_id), "_restarter", None)
        if restarter is not None:
            restarter.restart_limit = 0  # a death is reported ("dead"), not restarted as an empty kernel
        return kernel_id

    def _handle_kernel_died(self, kernel_id: str) -> None:
        notebook = self._drop_from_pool(kernel_id)
        self.log.warning("Kernel %s died (killed, crashed or out of memory)%s", kernel_id,
                         "; it was waiting in the pool: a replacement starts" if notebook else
                         "; its page tells the student to reload")
        super()._handle_kernel_died(kernel_id)
        fill = getattr(self, "fill_if_needed", None)  # Voila's pool (the class this one is the base of)
        if notebook is not None and fill is not None:
            fill(delay=None, notebook_name=notebook)

    def _drop_from_pool(self, kernel_id: str) -> str | None:
        """Take ``kernel_id`` out of Voila's pool if it waits there; returns its notebook (None if not pooled)."""
        for notebook, pool in self._pool_map().items():
            for task in pool:
                if task.done() and not task.exception() and task.result().get("kernel_id") == kernel_id:
                    pool.remove(task)
                    return notebook
        return None

    async def _start_kernel(self, *args, **kwargs):
        env = kwargs.get("env") or {}
        if env.get("VOILA_PREHEAT") != "True":  # a kernel outside the pool: no pacing
            return await super().start_kernel(*args, **kwargs)
        kwargs["extra_arguments"] = [*kwargs.get("extra_arguments", []), f"--IPKernelApp.exec_lines={KERNEL_PREPARE!r}"]
        self._pool_starts += 1
        number = self._pool_starts
        if number == 1:  # Voila's first fill: every pool task it made at start-up (one pool per notebook)
            self._first_fill = sum(len(pool) for pool in self._pool_map().values()) or 1
        if number == 1:  # the first kernel warms alone and fills the chart cache
            kernel_id = await super().start_kernel(*args, **kwargs)
            asyncio.get_event_loop().create_task(self._release_when_warm(kernel_id, self._first_warm.set))
            return kernel_id
        if number <= self._first_fill:  # the rest of the first fill, once the first is warm
            await self._first_warm.wait()
        return await super().start_kernel(*args, **kwargs)  # a refill, whose turn _paced_wait_before gave

    async def _refill_turn(self):
        """Wait until a refill may start (the class has settled, or fewer than ``low_water`` warm kernels are
        left) and it is the only one starting; returns the function that ends its turn."""
        self._last_take = time.monotonic()  # a student took a kernel fill_delay ago
        await self._refill_lock.acquire()
        while time.monotonic() - self._last_take < self.quiet_s and self._warm_in_pool() >= self.low_water:
            await asyncio.sleep(0.5)
        return self._refill_lock.release

    async def _release_when_warm(self, kernel_id: str, release) -> None:
        """Call ``release`` once the kernel has run the dashboard (busy, then idle), or after the timeout."""
        deadline = time.monotonic() + self.warm_timeout_s
        seen_busy = False
        try:
            while time.monotonic() < deadline:
                await asyncio.sleep(0.5)
                if kernel_id not in self:
                    return
                state = getattr(self.get_kernel(kernel_id), "execution_state", "")
                seen_busy = seen_busy or state == "busy"
                if seen_busy and state == "idle":
                    return
            self.log.warning("Kernel %s did not run the dashboard in %.0f s", kernel_id, self.warm_timeout_s)
        finally:
            release()
