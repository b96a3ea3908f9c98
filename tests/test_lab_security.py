"""``variants --dask local`` is closed to other local users (issue 18, item 4).

What broke: the lab's LocalCluster listened on plain TCP with no
authentication, and an HTTP server on 127.0.0.1:8787 (started although the
dashboard was off) answered ``/json/identity.json`` with the scheduler's
address: another process with no credentials read it, connected a
``distributed.Client`` and ran code in the scheduler (``run_on_scheduler``)
and the workers, as the person running the lab.

The test starts the lab's cluster (:func:`connect_dask` ``"local"``), lists
every port its processes listen on, and lets another process with no
credentials try each: an HTTP request (and on 127.0.0.1:8787), a
``distributed.Client`` over plain TCP, and distributed's handshake over TLS
without a certificate and with a certificate of its own. Every attempt must
fail, while the lab's own client still plays a game there. On the old code
the HTTP requests answered and the client ran code.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("distributed")
pytest.importorskip("cryptography")
psutil = pytest.importorskip("psutil")  # distributed depends on it

from warlords_sim.experiments import Experiment, builtin_variant  # noqa: E402
from warlords_sim.experiments.runner import connect_dask  # noqa: E402
from warlords_sim.experiments.worker import play  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

#: argv: HOST PORT...; prints a JSON object {attempt: what it got}, where a
#: success starts with "OPEN".
_ATTACKER = r"""
import asyncio, json, os, ssl, sys, tempfile, urllib.request
import distributed
from distributed.comm import connect

host, ports = sys.argv[1], [int(p) for p in sys.argv[2:]]
got = {}

def short(e):
    return f"{type(e).__name__}: {' '.join(str(e).split())[:120]}"

for port in sorted({*ports, 8787}):
    try:
        url = f"http://{host}:{port}/json/identity.json"
        with urllib.request.urlopen(url, timeout=5) as r:
            got[f"http {port}"] = "OPEN: " + r.read(300).decode(errors="replace")
    except Exception as e:
        got[f"http {port}"] = short(e)

async def run_code(port):
    async with distributed.Client(
        f"tcp://{host}:{port}", asynchronous=True, timeout=5
    ) as c:
        return await c.run_on_scheduler(os.getpid)

def bounded(coro):  # a Client may wait for a handshake without end
    return asyncio.run(asyncio.wait_for(coro, 15))

for port in ports:
    try:
        got[f"client tcp {port}"] = f"OPEN: ran code in pid {bounded(run_code(port))}"
    except Exception as e:
        got[f"client tcp {port}"] = short(e)

own = distributed.Security.temporary()  # a certificate of the attacker's own
folder = tempfile.mkdtemp()
cert, key = os.path.join(folder, "c.pem"), os.path.join(folder, "k.pem")
with open(cert, "w") as f:
    f.write(own.tls_client_cert)
with open(key, "w") as f:
    f.write(own.tls_client_key)

def context(with_cert):
    ctx = ssl.create_default_context(ssl.Purpose.SERVER_AUTH)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE  # trust whatever the server shows
    if with_cert:
        ctx.load_cert_chain(cert, key)
    return ctx

async def identity(port, ctx):
    comm = await connect(f"tls://{host}:{port}", timeout=5, ssl_context=ctx)
    try:
        await comm.write({"op": "identity", "reply": True})
        return await asyncio.wait_for(comm.read(), 5)
    finally:
        comm.abort()

for port in ports:
    for label, with_cert in (("no certificate", False), ("own certificate", True)):
        try:
            got[f"tls {label} {port}"] = "OPEN: " + str(
                bounded(identity(port, context(with_cert))))[:200]
        except Exception as e:
            got[f"tls {label} {port}"] = short(e)
print(json.dumps(got))
"""


def _listening(pids: list[int]) -> list[int]:
    """The TCP ports the processes ``pids`` listen on."""
    ports = set()
    for pid in pids:
        for conn in psutil.Process(pid).net_connections("tcp"):
            if conn.status == psutil.CONN_LISTEN:
                ports.add(conn.laddr.port)
    return sorted(ports)


def test_no_one_else_can_use_the_local_cluster() -> None:
    client, cluster = connect_dask("local", 1)
    try:
        assert client.scheduler.address.startswith("tls://127.0.0.1:")
        workers = list(client.run(os.getpid).values())  # the lab's client is let in
        ports = _listening([os.getpid(), *workers])
        scheduler_port = int(client.scheduler.address.rsplit(":", 1)[1])
        assert scheduler_port in ports and len(workers) == 1
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        proc = subprocess.run(
            [sys.executable, "-c", _ATTACKER, "127.0.0.1", *map(str, ports)],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode == 0, proc.stderr
        got = json.loads(proc.stdout.strip().splitlines()[-1])
        print(json.dumps(got, indent=1))
        assert len(got) == 1 + 4 * len(ports) - (8787 in ports)
        opened = {k: v for k, v in got.items() if v.startswith("OPEN")}
        assert not opened, opened
        # and the lab's games still run there
        exp = Experiment((builtin_variant("standard"),), players=2, games=1, bots=("aim", "aim"))
        spec = next(iter(exp.iter_specs()))
        row = client.submit(play, spec, pure=False).result(timeout=120)
        assert row == play(spec)
    finally:
        client.close()
        cluster.close()


def _pem_files(folder: Path, security: object) -> dict[str, str]:
    """The CA, certificate and key of a ``Security.temporary()`` as files
    readable by their owner alone, as the README's recipe keeps them."""
    files = {}
    for name, attr in (
        ("ca", "tls_ca_file"),
        ("cert", "tls_client_cert"),
        ("key", "tls_client_key"),
    ):
        path = folder / f"{name}.pem"
        path.write_text(getattr(security, attr))
        path.chmod(0o600)
        files[name] = str(path)
    return files


def test_a_tls_scheduler_address_is_reached_with_the_dask_configuration(tmp_path: Path) -> None:
    """The README's way to secure ``--dask ADDRESS``: a scheduler that wants
    TLS both ways, and the client's certificate in dask's configuration
    (here its environment variables). Without the settings the address is
    refused in one line; with a certificate of another authority too."""
    from distributed import LocalCluster, Security

    ours = _pem_files(tmp_path, Security.temporary())
    (tmp_path / "other").mkdir()
    theirs = _pem_files(tmp_path / "other", Security.temporary())
    security = Security(
        require_encryption=True,
        tls_ca_file=ours["ca"],
        **{f"tls_{role}_{part}": ours[part] for role in ("scheduler", "worker", "client")
           for part in ("cert", "key")},
    )  # fmt: skip

    def env_for(pem: dict[str, str] | None) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("DASK_")}
        env["PYTHONPATH"] = str(ROOT)
        if pem is not None:
            env |= {
                "DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION": "True",
                "DASK_DISTRIBUTED__COMM__TLS__CA_FILE": pem["ca"],
                "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT": pem["cert"],
                "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY": pem["key"],
            }
        return env

    with LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=False,
        host="127.0.0.1",
        protocol="tls://",
        security=security,
        dashboard_address=None,
    ) as cluster:
        address = cluster.scheduler_address
        argv = [sys.executable, "-c", "from warlords_sim.cli import main; main()", "variants"]
        argv += ["--players", "2", "--games", "1", "--variants", "standard", "--json"]

        def run(pem: dict[str, str] | None, at: str = address) -> subprocess.CompletedProcess[str]:
            return subprocess.run(
                [*argv, "--dask", at, "--dask-timeout", "30"],
                env=env_for(pem),
                capture_output=True,
                text=True,
                timeout=240,
            )

        bare = run(None)
        assert bare.returncode == 2, bare.stderr
        assert bare.stderr.strip() == (
            f"warlords-sim: error: --dask: {address}: no TLS settings "
            "(distributed.comm.tls in the dask configuration)"
        )
        other = run(theirs)
        assert other.returncode == 2, other.stderr
        assert other.stderr.startswith(f"warlords-sim: error: --dask: cannot reach a dask "
                                       f"scheduler at {address}"), other.stderr  # fmt: skip
        plain = "tcp://" + address.removeprefix("tls://")
        cleartext = run(ours, plain)  # the configuration wants encryption
        assert cleartext.returncode == 2 and cleartext.stderr.strip() == (
            f"warlords-sim: error: --dask: {plain}: the dask configuration requires "
            "encryption (distributed.comm.require-encryption): give a tls:// address"
        ), cleartext.stderr
        good = run(ours)
        assert good.returncode == 0, good.stderr
        assert json.loads(good.stdout)["variants"][0]["games"] == 1
