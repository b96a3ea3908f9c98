"""Running game specs: in this process, in local worker processes, or on dask.

:func:`run_games` hands each worker a plain :class:`~.specs.GameSpec` and
gets a plain row back (:func:`~.worker.play`); ``on_row`` is called in this
process for every finished game, in the order games finish. Ctrl-C
(KeyboardInterrupt) stops it cleanly: games not started are cancelled, the
local workers finish the game in hand (their rows are still delivered; a
worker is given its next game only when it is free, so there is at most
one game per worker to wait for), and the KeyboardInterrupt is raised again
for the caller. (Turning SIGTERM into the same KeyboardInterrupt is the
command line's job: a library does not install signal handlers.)

Local workers never outlive this process: each one watches its parent's
sentinel (:func:`multiprocessing.parent_process`, a pipe end on POSIX, the
process handle on Windows) in a daemon thread and exits at once when the
parent is gone, however it ended (``kill -9`` included); the stdlib's
workers would otherwise wait on their call queue forever (CPython issue
111873), and keep the multiprocessing resource tracker alive with them.

A dask scheduler address is checked before a ``Client`` is made: within
``timeout`` seconds the peer must answer distributed's handshake and say it
is a ``Scheduler``. A ``Client`` alone waits for the handshake without any
bound (a peer that accepts and stays silent hangs it) and reads an HTTP
server's answer as a message length of exabytes.
"""

from __future__ import annotations

import asyncio
import importlib
import itertools
import multiprocessing
import os
import signal
import socket
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from typing import Any

from warlords_sim.experiments.specs import ExperimentError, GameSpec
from warlords_sim.experiments.worker import Row, play
from warlords_sim.extras import require_extra

__all__ = [
    "DASK_TIMEOUT",
    "GameFailedError",
    "connect_dask",
    "default_workers",
    "run_games",
]

#: Seconds a scheduler address gets to connect and answer (``--dask-timeout``).
DASK_TIMEOUT = 10.0
#: Exit status of a local worker whose parent process is gone.
ORPHAN_EXIT = 70


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


def _exit_with_parent(parent: multiprocessing.process.BaseProcess) -> None:
    parent.join()  # returns when the parent's sentinel closes: the parent is gone
    os._exit(ORPHAN_EXIT)  # no clean-up: nobody is left to take the game in hand


def _worker_init() -> None:
    """In each local worker: leave Ctrl-C to the main process (which stops
    the workers cleanly), and exit as soon as the main process is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(
            target=_exit_with_parent, args=(parent,), name="parent-watch", daemon=True
        ).start()


def _run_here(specs: Iterable[GameSpec], on_row: Callable[[Row], None]) -> None:
    for spec in specs:
        try:
            row = play(spec)
        except Exception as e:
            raise _failed(spec, e) from e
        on_row(row)


def _run_pool(specs: Iterator[GameSpec], on_row: Callable[[Row], None], workers: int) -> None:
    ctx = multiprocessing.get_context("spawn")  # no fork of a threaded process
    ex = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_worker_init)
    todo: dict[Future[Row], GameSpec] = {}

    def deliver(done: set[Future[Row]]) -> None:
        for f in done:
            spec = todo.pop(f)
            if f.cancelled():
                continue
            e = f.exception()
            if e is not None:
                raise _failed(spec, e) from e
            on_row(f.result())

    waiting = specs

    def top_up() -> None:
        # one game per worker in flight: the executor hands a worker's next
        # game over before it is started, and such a game cannot be cancelled
        # (with all submitted at once, an interrupt waited for 2 to 5 more games)
        while len(todo) < workers and (spec := next(waiting, None)) is not None:
            todo[ex.submit(play, spec)] = spec

    try:  # the first submit starts the workers: an interrupt then stops them too
        top_up()
        while todo:
            done, _ = wait(list(todo), return_when=FIRST_COMPLETED)
            deliver(done)
            top_up()
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
    """The ``distributed`` module (untyped, hence Any).

    Raises:
        MissingExtraError: it is not installed (the ``lab`` extra).
    """
    require_extra("lab", "--dask", ["distributed"])
    return importlib.import_module("distributed")


def _one_line(e: BaseException, limit: int = 160) -> str:
    text = " ".join(str(e).split())
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


async def _identity(address: str, timeout: float, connection_args: dict[str, Any]) -> Any:
    """What the peer at ``address`` says it is (distributed's ``identity`` op)."""
    comm = await importlib.import_module("distributed.comm").connect(
        address, timeout=timeout, **connection_args
    )
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        comm.abort()


def _ask_identity(address: str, timeout: float, connection_args: dict[str, Any]) -> Any:
    """:func:`_identity` within ``timeout`` seconds in all, on an event loop of
    its own (in a thread: the caller may be running one, as Jupyter does)."""
    coro = asyncio.wait_for(_identity(address, timeout, connection_args), timeout)
    with ThreadPoolExecutor(1, thread_name_prefix="dask-probe") as pool:
        return pool.submit(asyncio.run, coro).result()


def _probe(address: str, timeout: float) -> None:
    """Fail within ``timeout`` seconds, with one clear line, unless ``address``
    is a dask scheduler that answers.

    Raises:
        ExperimentError: a malformed address, nothing listening, no answer in
            time, a peer that does not speak distributed's protocol, or a
            dask worker rather than a scheduler; a tls:// address without TLS
            settings in the dask configuration, or one that requires
            encryption and a plain address.
    """
    dd = _distributed()
    addressing = importlib.import_module("distributed.comm.addressing")
    try:
        scheme, loc = addressing.parse_address(address)
        importlib.import_module("distributed.comm.registry").get_backend(scheme)
        if scheme == "tcp":
            host, port = addressing.parse_host_port(loc, 8786)
    except (ValueError, TypeError) as e:
        raise ExperimentError(f"--dask: {address!r} is not a scheduler address: {e}") from e
    if scheme == "tcp":  # a closed port fails at once (distributed retries it until timeout)
        try:
            socket.create_connection((host, port), timeout=timeout).close()
        except OSError as e:
            raise ExperimentError(
                f"--dask: cannot reach a dask scheduler at {address}: {e.strerror or e}"
            ) from e
    args = dd.Security().get_connection_args("client")
    if args.get("require_encryption") and scheme not in ("tls", "wss"):
        raise ExperimentError(
            f"--dask: {address}: the dask configuration requires encryption "
            "(distributed.comm.require-encryption): give a tls:// address"
        )
    if scheme in ("tls", "wss") and args.get("ssl_context") is None:
        raise ExperimentError(
            f"--dask: {address}: no TLS settings (distributed.comm.tls in the dask configuration)"
        )
    try:
        ident = _ask_identity(address, timeout, args)
    except TimeoutError as e:
        raise ExperimentError(
            f"--dask: no dask scheduler answered at {address} within {timeout:g} s"
        ) from e
    except OSError as e:
        raise ExperimentError(
            f"--dask: cannot reach a dask scheduler at {address}: {_one_line(e)}"
        ) from e
    except Exception as e:  # whatever a peer that is not dask sends (MemoryError too)
        raise ExperimentError(
            f"--dask: {address} is not a dask scheduler (no dask handshake: {_one_line(e)})"
        ) from e
    kind = ident.get("type") if isinstance(ident, dict) else None
    if kind != "Scheduler":
        raise ExperimentError(
            f"--dask: {address} is not a dask scheduler ("
            + (f"it is a dask {kind})" if kind else "it gave no identity)")
        )


def connect_dask(
    address: str, workers: int | None = None, timeout: float = DASK_TIMEOUT
) -> tuple[Any, Any]:
    """A ``distributed.Client`` for ``address`` (``"local"``: a new LocalCluster
    of ``workers`` single-threaded processes, default all cores, TLS with
    credentials made for the run and no HTTP server:
    :func:`.cluster.start_local_cluster`) and the cluster it started (None
    for an address). Close both when done.

    An address is reached with the security of the dask configuration
    (``distributed.comm.tls.*``, ``distributed.comm.require-encryption``:
    the README's "Securing --dask ADDRESS"); a ``tls://`` address without
    TLS settings there is refused.

    Args:
        address: ``"local"`` or a scheduler address (``tcp://host:8786``).
        workers: the LocalCluster's worker processes.
        timeout: seconds (> 0) a scheduler address gets to connect and answer.

    Raises:
        ExperimentError: a bad timeout, or no scheduler answering at
            ``address`` within ``timeout``.
        MissingExtraError: no distributed package, or for ``"local"`` no
            cryptography package (the ``lab`` extra).
    """
    if not timeout > 0 or timeout == float("inf"):
        raise ExperimentError(
            f"--dask-timeout: expected a positive number of seconds, got {timeout}"
        )
    workers = default_workers() if workers is None else workers
    dd = _distributed()
    if address == "local":
        require_extra("lab", "--dask local", ["cryptography"])  # its TLS credentials
        from warlords_sim.experiments.cluster import start_local_cluster

        return start_local_cluster(workers)
    _probe(address, timeout)
    try:
        return dd.Client(address, timeout=timeout), None
    except (OSError, TimeoutError, ValueError) as e:
        raise ExperimentError(f"--dask: cannot reach a dask scheduler at {address}: {e}") from e


def _run_dask(specs: list[GameSpec], on_row: Callable[[Row], None], client: Any) -> None:
    as_completed = _distributed().as_completed
    futures = client.map(play, specs, pure=False)
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
    specs: Iterable[GameSpec],
    on_row: Callable[[Row], None],
    *,
    workers: int | None = None,
    dask: str | None = None,
    client: Any = None,
    dask_timeout: float = DASK_TIMEOUT,
) -> None:
    """Play every spec and call ``on_row`` with each finished game's row.

    Args:
        specs: the games: a list, or an iterator whose specs are made as
            local workers become free (dask is handed them all at once).
        on_row: called in this process as each game finishes.
        workers: local worker processes (default: all cores); 1 plays in this
            process. With ``dask="local"``: the LocalCluster's workers.
        dask: ``"local"`` to start a LocalCluster, or a scheduler address
            (``tcp://host:8786``) to send the games to.
        client: an existing ``distributed.Client`` to use instead.
        dask_timeout: seconds a scheduler address gets to connect and answer.

    Raises:
        ExperimentError: workers < 1, no dask, or the scheduler unreachable.
        GameFailedError: a game raised (a bug).
        KeyboardInterrupt: after stopping cleanly (finished rows delivered).
    """
    n = default_workers() if workers is None else workers
    if n < 1:
        raise ExperimentError(f"--workers: expected at least 1, got {n}")
    if client is not None:
        every = list(specs)
        if every:
            _run_dask(every, on_row, client)
        return
    if dask is not None:
        every = list(specs)
        if not every:
            return
        the_client, cluster = connect_dask(dask, n, dask_timeout)
        try:
            _run_dask(every, on_row, the_client)
        finally:
            the_client.close()
            if cluster is not None:
                cluster.close()
        return
    it = iter(specs)
    first = list(itertools.islice(it, n))  # at most one game per worker made ahead
    if not first:
        return
    if n == 1 or len(first) == 1:
        _run_here(itertools.chain(first, it), on_row)
    else:
        _run_pool(itertools.chain(first, it), on_row, min(n, len(first)))
