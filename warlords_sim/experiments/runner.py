"""Running game specs: in this process, in local worker processes, or on dask.

:func:`run_games` hands each worker a plain :class:`~.specs.GameSpec` and
gets a plain row back (:func:`~.worker.play`); ``on_row`` is called in this
process for every finished game, in the order games finish. Ctrl-C
(KeyboardInterrupt) stops it cleanly: games not started are cancelled, the
local workers finish the game in hand (their rows are still delivered), and
the KeyboardInterrupt is raised again for the caller.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import signal
import socket
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from warlords_sim.experiments.specs import ExperimentError, GameSpec
from warlords_sim.experiments.worker import Row, play

__all__ = ["GameFailedError", "connect_dask", "default_workers", "run_games"]


class GameFailedError(RuntimeError):
    """A game raised in a worker (a bug: the message names the game and its seed)."""


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _failed(spec: GameSpec, e: BaseException) -> GameFailedError:
    return GameFailedError(
        f"game {spec['index']} of variant {spec['variant']!r} (seed {spec['seed']}) failed: "
        f"{type(e).__name__}: {e}"
    )


def _ignore_sigint() -> None:
    """Local workers leave Ctrl-C to the main process, which stops them cleanly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_here(specs: Sequence[GameSpec], on_row: Callable[[Row], None]) -> None:
    for spec in specs:
        try:
            row = play(spec)
        except Exception as e:
            raise _failed(spec, e) from e
        on_row(row)


def _run_pool(specs: Sequence[GameSpec], on_row: Callable[[Row], None], workers: int) -> None:
    ctx = multiprocessing.get_context("spawn")  # no fork of a threaded process
    ex = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_ignore_sigint)
    todo: dict[Future[Row], GameSpec] = {ex.submit(play, s): s for s in specs}

    def deliver(done: set[Future[Row]]) -> None:
        for f in done:
            spec = todo.pop(f)
            if f.cancelled():
                continue
            e = f.exception()
            if e is not None:
                raise _failed(spec, e) from e
            on_row(f.result())

    try:
        while todo:
            done, _ = wait(list(todo), return_when=FIRST_COMPLETED)
            deliver(done)
    except KeyboardInterrupt:
        ex.shutdown(wait=True, cancel_futures=True)  # the games in hand finish
        # keep the finished games; a worker still starting up when the
        # interrupt came breaks the pool, which is the interrupt, not a failure
        finished = {f for f in todo if f.done() and not f.cancelled() and f.exception() is None}
        deliver(finished)
        raise
    except BaseException:
        ex.shutdown(wait=False, cancel_futures=True)
        raise
    ex.shutdown(wait=True)


def _distributed() -> Any:
    """The ``distributed`` module (untyped, hence Any)."""
    try:
        return importlib.import_module("distributed")
    except ImportError as e:  # pragma: no cover - a dependency
        raise ExperimentError(
            "--dask needs the distributed package: pip install 'dask[distributed]'"
        ) from e


def _probe(address: str) -> None:
    """Fail fast, with a clear message, on a malformed or closed tcp address
    (a Client that fails to connect retries for its whole timeout and then
    hangs again while being garbage-collected)."""
    addressing = importlib.import_module("distributed.comm.addressing")
    try:
        scheme, loc = addressing.parse_address(address)
        if scheme != "tcp":
            return
        host, port = addressing.parse_host_port(loc, 8786)
    except (ValueError, TypeError) as e:
        raise ExperimentError(f"--dask: {address!r} is not a scheduler address: {e}") from e
    try:
        socket.create_connection((host, port), timeout=5.0).close()
    except OSError as e:
        raise ExperimentError(
            f"--dask: cannot reach a dask scheduler at {address}: {e.strerror or e}"
        ) from e


def connect_dask(address: str, workers: int | None = None) -> tuple[Any, Any]:
    """A ``distributed.Client`` for ``address`` (``"local"``: a new LocalCluster
    of ``workers`` single-threaded processes, default all cores) and the
    cluster it started (None for an address). Close both when done.

    Raises:
        ExperimentError: no distributed package, or the scheduler unreachable.
    """
    workers = default_workers() if workers is None else workers
    dd = _distributed()
    if address == "local":
        cluster = dd.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        return dd.Client(cluster), cluster
    _probe(address)
    try:
        return dd.Client(address, timeout="10s"), None
    except (OSError, TimeoutError, ValueError) as e:
        raise ExperimentError(f"--dask: cannot reach a dask scheduler at {address}: {e}") from e


def _run_dask(specs: Sequence[GameSpec], on_row: Callable[[Row], None], client: Any) -> None:
    as_completed = _distributed().as_completed
    futures = client.map(play, list(specs), pure=False)
    by_key = {f.key: s for f, s in zip(futures, specs, strict=True)}
    try:
        for f in as_completed(futures):
            try:
                row = f.result()
            except Exception as e:
                raise _failed(by_key[f.key], e) from e
            on_row(row)
    finally:
        client.cancel(futures)


def run_games(
    specs: Sequence[GameSpec],
    on_row: Callable[[Row], None],
    *,
    workers: int | None = None,
    dask: str | None = None,
    client: Any = None,
) -> None:
    """Play every spec and call ``on_row`` with each finished game's row.

    Args:
        specs: the games.
        on_row: called in this process as each game finishes.
        workers: local worker processes (default: all cores); 1 plays in this
            process. With ``dask="local"``: the LocalCluster's workers.
        dask: ``"local"`` to start a LocalCluster, or a scheduler address
            (``tcp://host:8786``) to send the games to.
        client: an existing ``distributed.Client`` to use instead.

    Raises:
        ExperimentError: workers < 1, no dask, or the scheduler unreachable.
        GameFailedError: a game raised (a bug).
        KeyboardInterrupt: after stopping cleanly (finished rows delivered).
    """
    n = default_workers() if workers is None else workers
    if n < 1:
        raise ExperimentError(f"--workers: expected at least 1, got {n}")
    if not specs:
        return
    if client is not None:
        _run_dask(specs, on_row, client)
        return
    if dask is not None:
        the_client, cluster = connect_dask(dask, n)
        try:
            _run_dask(specs, on_row, the_client)
        finally:
            the_client.close()
            if cluster is not None:
                cluster.close()
        return
    if n == 1 or len(specs) == 1:
        _run_here(specs, on_row)
    else:
        _run_pool(specs, on_row, min(n, len(specs)))
