"""The lab's own dask cluster (``variants --dask local``), closed to others.

A LocalCluster as distributed makes it by default lets any local user in:
its scheduler listens on plain TCP with no authentication, and its HTTP
server (the dashboard's, 127.0.0.1:8787 by default, still started with
``dashboard_address=None``) answers ``/json/identity.json`` with the
scheduler's address. From another process with no credentials a
``distributed.Client`` connected and ran code in the scheduler as the
person running the lab (issue 18).

:func:`start_local_cluster` starts it with distributed's own security:

- TLS both ways on every connection (scheduler, nannies, workers, the
  client): each side must present a certificate of the run's own
  authority, a key and self-signed certificate made for the run
  (``distributed.Security.temporary()``, needs ``cryptography``). They live
  in memory, reach the worker processes through the nannies' pipes, and are
  written only for the moment ``ssl`` loads them, by distributed, into a
  private temporary folder (``tempfile.TemporaryDirectory``, mode 0700).
- No HTTP server: no dashboard, and the HTTP server that the scheduler and
  every worker start even then (for ``/health``, ``/metrics`` and the JSON
  routes) is given no routes and stopped by a plugin as soon as it has
  started (a worker's before it registers with the scheduler; a restarted
  worker's too), so no port of the cluster answers HTTP.

Everything listens on 127.0.0.1 only.
"""

from __future__ import annotations

from typing import Any

import dask
import distributed
from distributed.diagnostics.plugin import SchedulerPlugin, WorkerPlugin

__all__ = ["HOST", "start_local_cluster"]

#: Where the local cluster listens.
HOST = "127.0.0.1"
#: distributed's configuration while the cluster starts (the nannies pass it
#: on to their worker processes): no HTTP routes at all.
_NO_HTTP: dict[str, list[str]] = {
    "distributed.scheduler.http.routes": [],
    "distributed.worker.http.routes": [],
}
#: The package, untyped.
_dd: Any = distributed


def _stop_http(server: Any) -> None:
    """Stop the HTTP server of a scheduler or worker and forget it."""
    http = getattr(server, "http_server", None)
    if http is not None:
        http.stop()
    server.services.pop("dashboard", None)


class NoHttpScheduler(SchedulerPlugin):  # type: ignore[misc]  # distributed is untyped
    """Stops the scheduler's HTTP server when the scheduler starts."""

    name = "warlords-sim-no-http"

    async def start(self, scheduler: Any) -> None:
        _stop_http(scheduler)


class NoHttpWorker(WorkerPlugin):  # type: ignore[misc]
    """Stops a worker's HTTP server when the worker starts (also a worker
    its nanny restarts)."""

    name = "warlords-sim-no-http"

    def setup(self, worker: Any) -> None:
        _stop_http(worker)


def start_local_cluster(workers: int) -> tuple[Any, Any]:
    """A new LocalCluster of ``workers`` single-threaded worker processes on
    127.0.0.1, secured as the module docstring says, and a ``Client`` of it
    (it holds the run's credentials). Close both when done.

    Raises:
        ImportError: no ``cryptography`` (the ``lab`` extra).
        OSError: the cluster cannot start.
    """
    security = _dd.Security.temporary()
    with dask.config.set(_NO_HTTP):
        cluster = _dd.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host=HOST,
            protocol="tls://",
            security=security,
            dashboard_address=None,
            scheduler_kwargs={"plugins": [NoHttpScheduler()]},
            plugins=(NoHttpWorker(),),
        )
    try:
        client = _dd.Client(cluster, security=security)
    except BaseException:
        cluster.close()
        raise
    return client, cluster
