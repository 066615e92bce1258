"""Starts the real `deltasync` binary for the third-party client tests."""

import atexit
import hashlib
import os
import signal
import socket
import subprocess
import tempfile
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("DELTASYNC_BIN", ROOT / ".build" / "debug" / "deltasync"))
EXAMPLE_PROJECT = ROOT / "Examples" / "blog"
EXAMPLE_SCHEMA = EXAMPLE_PROJECT / "schema.graphql"
API_KEY = "da2-e2etestkey000000000000000"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """A `deltasync serve` child process, ready once it printed its GraphQL URL."""

    def __init__(self, db: Path, port: int, schema_args=None, database=None):
        self.port = port
        self.url = f"http://127.0.0.1:{port}/graphql"
        self.host = f"127.0.0.1:{port}"
        store = ["--database", database] if database else ["--db", str(db)]
        self.process = subprocess.Popen(
            [str(BINARY), "serve", *(schema_args or ["--schema", str(EXAMPLE_SCHEMA)]), "--port", str(port),
             "--api-key", API_KEY, *store],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        seen = []
        # A server that never comes up is killed, which ends the read loop below.
        watchdog = threading.Timer(60, self.process.kill)
        watchdog.start()
        try:
            # The server prints its URL only after the socket is bound: wait for that line.
            for line in self.process.stdout:
                seen.append(line)
                if "GraphQL:" in line:
                    break
            else:
                raise RuntimeError("deltasync exited before serving:\n" + "".join(seen))
        finally:
            watchdog.cancel()
        # What the server printed up to its GraphQL URL: warnings and the banner's start.
        self.banner = seen

    def kill9(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill9()


_cluster = {}


def cluster_url():
    """DELTASYNC_POSTGRES_URL (scripts/test.sh starts a cluster), else a cluster of our own."""
    if os.environ.get("DELTASYNC_POSTGRES_URL"):
        return os.environ["DELTASYNC_POSTGRES_URL"]
    if "url" not in _cluster:
        folder = tempfile.mkdtemp(prefix="deltasync-pg-e2e.")
        script = str(ROOT / "scripts" / "postgres-cluster.sh")
        _cluster["url"] = subprocess.run(["bash", script, "start", folder], check=True, capture_output=True,
                                         text=True).stdout.strip()
        atexit.register(lambda: subprocess.run(["bash", script, "stop", folder], check=False))
    return _cluster["url"]


def pytest_generate_tests(metafunc):
    """The gql suites (test_gql_*.py) run against both stores: each test once on a SQLite file,
    once on a PostgreSQL schema of its own."""
    if metafunc.module.__name__.startswith("test_gql_") and "store" in metafunc.fixturenames:
        metafunc.parametrize("store", ["sqlite", "postgres"])


@pytest.fixture
def store():
    """The store `server_factory` starts servers on; the gql suites are run on both."""
    return "sqlite"


@pytest.fixture
def server_factory(tmp_path, store):
    started = []

    def start(db: Path = tmp_path / "db.sqlite", port: int = 0, schema_args=None):
        database = None
        if store == "postgres":
            # One schema per database file: a test that restarts on the same file gets its data back.
            database = f"{cluster_url()}?schema=e2e_{hashlib.sha1(str(db).encode()).hexdigest()[:16]}"
        server = ServerProcess(db, port or free_port(), schema_args, database)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def server(server_factory):
    return server_factory()


async def until_subscribed(create, queue):
    """gql does not expose start_ack: call `create(n)` until the subscription feeding `queue`
    has seen an event, then empty the queue."""
    import asyncio

    for n in range(100):
        await create(n)
        try:
            await asyncio.wait_for(queue.get(), timeout=0.2)
            break
        except asyncio.TimeoutError:
            continue
    else:
        raise AssertionError("the subscription never received an event")
    while not queue.empty():
        queue.get_nowait()
