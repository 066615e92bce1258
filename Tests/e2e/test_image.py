"""The image's smoke suite, without a container engine: the staged server inside the image's
runtime root filesystem (scripts/image-rootfs.sh: a Debian of the final stage's release with
docker/runtime.sh's packages, user and folders), run with `chroot` as the image's user, with the
image's environment, working folder and command. The staged folder is mounted at the image's
/opt/deltasync and an empty folder at /data, in a mount namespace of the server's own.

Needs root and DELTASYNC_ROOTFS (scripts/test.sh builds the tree and sets it when debootstrap is
installed, which scripts/bootstrap.sh does). The start time and the sizes are written to
DELTASYNC_IMAGE_REPORT for scripts/test.sh to print; targets live in docs/benchmarks.md."""

import asyncio
import importlib.util
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from gql import Client, GraphQLRequest
from gql.transport.aiohttp import AIOHTTPTransport
from gql.transport.appsync_auth import AppSyncApiKeyAuthentication
from gql.transport.appsync_websockets import AppSyncWebsocketsTransport

from conftest import BINARY, ROOT, free_port
from test_container import ServerOutput

_spec = importlib.util.spec_from_file_location("image_run", ROOT / "scripts" / "image_run.py")
image_run = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(image_run)

ROOTFS = Path(os.environ["DELTASYNC_ROOTFS"]) if os.environ.get("DELTASYNC_ROOTFS") else None
# The folder mounted at the image's /opt/deltasync: the staged server, or DELTASYNC_IMAGE_APP (a
# release artifact's folder, to try what the image would ship).
STAGED = Path(os.environ["DELTASYNC_IMAGE_APP"]) if os.environ.get("DELTASYNC_IMAGE_APP") else BINARY.parent
USER_ID = image_run.USER_ID
# `docker stop`'s default grace period before SIGKILL.
GRACE_SECONDS = 10

pytestmark = pytest.mark.skipif(
    ROOTFS is None or os.geteuid() != 0 or not (STAGED / "schema.graphql").exists(),
    reason="needs root, DELTASYNC_ROOTFS (bash scripts/image-rootfs.sh DIR) and a staged server in "
           "DELTASYNC_BIN's folder (bash scripts/build-server.sh .build/staged); scripts/test.sh sets them up")

CREATE_POST = """mutation($i: CreatePostInput!) { createPost(input: $i) { id title _version _lastChangedAt } }"""
SYNC_POSTS = """query { syncPosts(limit: 100) { items { id title _version _deleted } startedAt nextToken } }"""
ON_CREATE = "subscription { onCreatePost { id title } }"


def in_image(argv, data: Path, workdir=None):
    return image_run.command(argv, ROOTFS, STAGED, data, workdir)


class ImageServer(ServerOutput):
    """The image's ENTRYPOINT and CMD in the tree, with `--port` for a free port (as test_container.py)."""

    def __init__(self, data: Path):
        self.port = free_port()
        self.data = data
        super().__init__(in_image(image_run.server_arguments(self.port), data))
        self.api_key = re.search(r"API key:\s+(\S+)", "".join(self.banner)).group(1)
        self.host = f"127.0.0.1:{self.port}"

    def http(self):
        auth = AppSyncApiKeyAuthentication(host=self.host, api_key=self.api_key)
        return Client(transport=AIOHTTPTransport(url=f"http://{self.host}/graphql", auth=auth),
                      fetch_schema_from_transport=False)

    def realtime(self):
        auth = AppSyncApiKeyAuthentication(host=self.host, api_key=self.api_key)
        return Client(transport=AppSyncWebsocketsTransport(url=f"ws://{self.host}/graphql", auth=auth))


@pytest.fixture
def data_volume():
    """The container's /data volume: empty, owned by the image's user, as Docker creates it."""
    folder = image_run.new_data_folder()
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def report(line: str):
    path = os.environ.get("DELTASYNC_IMAGE_REPORT")
    if path:
        with open(path, "a", encoding="utf-8") as file:
            file.write(line + "\n")


def test_the_image_serves_creates_syncs_subscribes_and_stops_on_sigterm(data_volume):
    server = ImageServer(data_volume)
    try:
        health = subprocess.run(
            in_image(image_run.health_check(server.port), data_volume, "/"), capture_output=True, text=True, timeout=30)
        assert health.returncode == 0, f"the image's HEALTHCHECK failed inside it: {health.stderr}"

        async def scenario():
            received = asyncio.Queue()

            async def listen(session):
                async for event in session.subscribe(GraphQLRequest(ON_CREATE)):
                    await received.put(event["onCreatePost"])

            async with server.realtime() as live, server.http() as mutations:
                listener = asyncio.create_task(listen(live))
                # gql does not expose start_ack: create until the subscription sees one.
                created = None
                for attempt in range(100):
                    created = (await mutations.execute(GraphQLRequest(CREATE_POST, variable_values={
                        "i": {"id": f"image-{attempt}", "blogID": "b1", "title": "from the image"}})))["createPost"]
                    try:
                        event = await asyncio.wait_for(received.get(), timeout=0.2)
                        break
                    except asyncio.TimeoutError:
                        continue
                else:
                    raise AssertionError("the subscription never received a created post")
                assert event["title"] == "from the image"
                assert created["_version"] == 1
                synced = (await mutations.execute(GraphQLRequest(SYNC_POSTS)))["syncPosts"]
                listener.cancel()
                return created, synced

        created, synced = asyncio.run(scenario())
        assert created["id"] in {item["id"] for item in synced["items"]}
        assert synced["startedAt"] >= created["_lastChangedAt"]
        stored = list(data_volume.iterdir())
        assert stored and all(path.stat().st_uid == USER_ID for path in stored), \
            "the store must be written to /data as the image's user"

        stopping = time.monotonic()
        try:
            status = server.stop(timeout=GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running {GRACE_SECONDS} s after SIGTERM: `docker stop` would kill it")
        assert status == 0, "".join(server.rest)
        layer = (ROOTFS / ".deltasync-layer-bytes").read_text().strip() if (ROOTFS / ".deltasync-layer-bytes").exists() else "?"
        staged = sum(path.stat().st_size for path in STAGED.iterdir() if path.is_file())
        report(f"image smoke suite: ready {server.ready_seconds * 1000:.0f} ms after exec (as `docker run` starts it, "
               f"the example schema, deltasync from {STAGED}), stopped {(time.monotonic() - stopping) * 1000:.0f} ms "
               f"after SIGTERM; the layer docker/runtime.sh adds: {int(layer) / 1e6:.1f} MB compressed; "
               f"the staged folder: {staged / 1e6:.1f} MB uncompressed")
    finally:
        server.kill()


def test_every_library_the_staged_server_loads_is_in_the_image():
    checked = subprocess.run(["python3", str(ROOT / "scripts" / "check-image-libraries.py"), str(STAGED / "deltasync"),
                              "--rootfs", str(ROOTFS)], capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0, checked.stderr
    assert re.search(r"^libsqlite3\.so\.0\tlibsqlite3-0$", checked.stdout, re.MULTILINE), checked.stdout


def test_the_image_runs_the_function_runtimes_as_its_user(data_volume):
    """Local `@function` handlers and APPSYNC_JS workers need node and python3 in the image."""
    for argv, expected in ((["node", "-e", "console.log(process.getuid())"], str(USER_ID)),
                           (["python3", "-c", "import os; print(os.getuid())"], str(USER_ID)),
                           (["deltasync", "--version"], "deltasync")):
        ran = subprocess.run(in_image(argv, data_volume, "/data"), capture_output=True, text=True, timeout=60)
        assert ran.returncode == 0 and expected in ran.stdout, (argv, ran.stdout, ran.stderr)
