"""The staged server (scripts/build-server.sh, as the image's build stage runs it) started the way
docker/Dockerfile and compose.yaml start it: their arguments, an unprivileged user, their health
checks, `docker stop`'s SIGTERM. CI has no Docker engine; this stands in for `docker run`."""

import importlib.util
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

from conftest import BINARY, ROOT, free_port

_spec = importlib.util.spec_from_file_location("check_docker", ROOT / "scripts" / "check-docker.py")
check_docker = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_docker)

IMAGE = check_docker.image()
SERVICES = check_docker.compose_services()
STAGED = BINARY.parent
NOBODY = 65534

staged = pytest.mark.skipif(
    not (STAGED / "schema.graphql").exists(),
    reason="DELTASYNC_BIN is not a staged server: run `bash scripts/build-server.sh .build/staged` "
           "and set DELTASYNC_BIN=.build/staged/deltasync (scripts/test.sh does)")


def test_the_dockerfile_the_compose_file_and_ci_agree():
    assert check_docker.check() == []


def test_compose_writes_no_key_and_staging_runs_without_the_fixture_api(tmp_path):
    assert check_docker.check_keys_and_admin(SERVICES) == []
    # What the file shipped before: keys with defaults every reader knows, a staging server
    # with the fixture API.
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    required_admin = re.search(r'"\$\{DELTASYNC_ADMIN_KEY:\?[^}]*\}"', text).group(0)
    doctored = tmp_path / "compose.yaml"
    doctored.write_text(text.replace(required_admin, '"${DELTASYNC_ADMIN_KEY:-dsa-shared}"')
                        .replace(', "--no-admin"]', ']'), encoding="utf-8")
    failures = check_docker.check_keys_and_admin(check_docker.compose_services(str(doctored)))
    assert any("--admin-key ${DELTASYNC_ADMIN_KEY:-dsa-shared}" in failure for failure in failures), failures
    assert any("--no-admin" in failure for failure in failures), failures


def reachable_by_others(path: Path) -> bool:
    """Whether a user other than the owner can reach `path` (every folder above searchable)."""
    return all(parent.stat().st_mode & 0o001 for parent in path.resolve().parents) and path.stat().st_mode & 0o005


def unprivileged():
    """How to drop to an unprivileged user, as the image runs as `deltasync`: a command prefix
    and the uid; ([], uid) when the tests already run unprivileged; None when root cannot drop."""
    if os.geteuid() != 0:
        return [], os.geteuid()
    if not reachable_by_others(STAGED / "deltasync"):
        return None
    if shutil.which("setpriv"):
        return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--"], NOBODY
    if shutil.which("runuser"):
        return ["runuser", "-u", "nobody", "--"], NOBODY
    return None


def interpolate(argument: str) -> str:
    """compose's `${NAME:-default}` and `${NAME:?message}`, with test values for the required ones."""
    def value(match):
        name, operator, rest = match.group(1), match.group(2), match.group(3)
        if operator == ":-":
            return rest
        return {"DELTASYNC_API_KEY": "da2-containertest", "DELTASYNC_ADMIN_KEY": "dsa-containertest"}[name]
    return re.sub(r"\$\{(\w+)(:-|:\?)([^}]*)\}", value, argument)


class ServerOutput:
    """A server process started with `argv`, read up to its banner's `Storage:` line (printed
    once it listens) or the JSON ready line, then read on so it never blocks on a full pipe."""

    def __init__(self, argv):
        self.started = time.monotonic()
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.banner = []
        watchdog = threading.Timer(60, self.process.kill)
        watchdog.start()
        try:
            for line in self.process.stdout:
                self.banner.append(line)
                if "Storage:" in line or '"message":"ready"' in line:
                    break
            else:
                raise AssertionError("the server exited before serving:\n" + "".join(self.banner))
        finally:
            watchdog.cancel()
        self.ready_seconds = time.monotonic() - self.started
        self.rest = []
        self.reader = threading.Thread(target=lambda: self.rest.extend(self.process.stdout), daemon=True)
        self.reader.start()

    def stop(self, timeout=30) -> int:
        """SIGTERM, as `docker stop` sends it; the exit status."""
        self.process.send_signal(signal.SIGTERM)
        status = self.process.wait(timeout=timeout)
        self.reader.join(30)
        return status

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)


class Container(ServerOutput):
    """The staged server run with an image's arguments: `deltasync` is the staged binary, the
    image's paths (`mounts`) are folders here, and `--port` picks a free port."""

    def __init__(self, arguments, mounts, drop):
        self.port = free_port()
        self.mounts = mounts
        prefix = drop[0] if drop else []
        argv = [str(BINARY) if arguments[0] == "deltasync" else arguments[0]]
        argv += [self.local(interpolate(argument)) for argument in arguments[1:]]
        super().__init__(prefix + argv + ["--port", str(self.port)])

    def local(self, argument: str) -> str:
        for inside, outside in self.mounts.items():
            if argument == inside or argument.startswith(inside + "/"):
                return str(outside) + argument[len(inside):]
        return argument

    def health_check(self, command):
        """Runs an image's health check command (`CMD` and all) against this server."""
        command = [part.replace(":20002/", f":{self.port}/") for part in command if part != "CMD"]
        if not shutil.which(command[0]):
            pytest.skip(f"{command[0]} (the health check's program) is not installed here")
        return subprocess.run(command, capture_output=True, text=True, timeout=30)


@pytest.fixture
def drop():
    how = unprivileged()
    if how is None:
        # Only the user changes: the server still runs with the image's arguments below.
        import warnings
        warnings.warn("cannot run the server as an unprivileged user here (no setpriv/runuser, or the staged "
                      "binary is not reachable by others): running it as root")
    return how


@pytest.fixture
def data_folder(drop):
    """The container's /data: an empty folder the server's user owns (as the image's VOLUME)."""
    folder = Path(tempfile.mkdtemp(prefix="deltasync-data-"))
    os.chmod(folder, 0o755)
    if drop and drop[1] != os.geteuid():
        os.chown(folder, drop[1], drop[1])
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@staged
def test_the_image_command_serves_as_an_unprivileged_user_and_passes_its_health_check(drop, data_folder):
    arguments = IMAGE["entrypoint"] + IMAGE["cmd"]
    server = Container(arguments, {IMAGE["app_dir"]: STAGED, "/data": data_folder}, drop)
    try:
        banner = "".join(server.banner)
        assert "GraphQL:  http://0.0.0.0:" in banner
        assert f"Storage:  {data_folder}/" in banner
        check = server.health_check(IMAGE["healthcheck"])
        assert check.returncode == 0, check.stderr
        stored = list(data_folder.iterdir())
        assert stored, "nothing was written to the data folder"
        if drop:
            assert all(path.stat().st_uid == drop[1] for path in stored)
        assert server.stop() == 0, "".join(server.rest)
    finally:
        server.kill()


@staged
@pytest.mark.parametrize("name", ["fixture", "staging"])
def test_each_compose_service_serves_and_passes_its_health_check(name, drop, data_folder, tmp_path):
    service = SERVICES[name]
    mounts = {IMAGE["app_dir"]: STAGED, "/data": data_folder}
    if any(argument.startswith("/certs/") for argument in service["command"]):
        # The certificate compose mounts: `deltasync dev-cert`'s, readable by the server's user
        # as compose.yaml says to make it.
        certs = Path(tempfile.mkdtemp(prefix="deltasync-certs-"))
        made = subprocess.run([str(BINARY), "dev-cert", "--data-dir", str(certs)], capture_output=True, text=True,
                              timeout=60)
        assert made.returncode == 0, made.stderr
        os.chmod(certs, 0o755)
        if drop and drop[1] != os.geteuid():
            os.chown(certs / "dev-cert-key.pem", drop[1], drop[1])
        mounts["/certs"] = certs
    server = Container(IMAGE["entrypoint"] + service["command"], mounts, drop)
    try:
        check = server.health_check(service.get("healthcheck", IMAGE["healthcheck"]))
        assert check.returncode == 0, check.stderr
        assert server.stop() == 0, "".join(server.rest)
    finally:
        server.kill()
        if "/certs" in mounts:
            shutil.rmtree(mounts["/certs"], ignore_errors=True)
