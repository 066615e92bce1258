"""The release artifact (scripts/release.sh) and the GitHub Action's script (scripts/ci-server.sh,
all of action.yml's logic) against a local artifact folder: what a CI job without a Swift
toolchain gets. The artifact packages the staged server (`--from-staged`), as a release packages
its release build."""

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import tarfile
import urllib.request
from pathlib import Path

import pytest

from conftest import BINARY, EXAMPLE_SCHEMA, ROOT

STAGED = BINARY.parent
VERSION = "9.8.7-test"
SCRIPT = ROOT / "scripts" / "ci-server.sh"

pytestmark = pytest.mark.skipif(
    not (STAGED / "schema.graphql").exists(),
    reason="DELTASYNC_BIN is not a staged server: run `bash scripts/build-server.sh .build/staged` "
           "and set DELTASYNC_BIN=.build/staged/deltasync (scripts/test.sh does)")


def platform():
    machine = {"aarch64": "arm64", "amd64": "x86_64"}.get(os.uname().machine, os.uname().machine)
    return "macos-universal" if os.uname().sysname == "Darwin" else f"linux-{machine}"


ARTIFACT = f"deltasync-{VERSION}-{platform()}"


@pytest.fixture(scope="module")
def releases(tmp_path_factory):
    """A release folder as a GitHub release holds it: the artifact and SHA256SUMS."""
    folder = tmp_path_factory.mktemp("releases")
    command = ["bash", str(ROOT / "scripts" / "release.sh"), "--from-staged", str(STAGED), "--out", str(folder),
               "--version", VERSION]
    if os.environ.get("DELTASYNC_ROOTFS"):
        command += ["--rootfs", os.environ["DELTASYNC_ROOTFS"]]
    built = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stdout + built.stderr
    return folder


def run_script(*arguments, releases, cache, github=None, timeout=120):
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("GITHUB_", "DELTASYNC_"))}
    environment.update({"DELTASYNC_RELEASES": str(releases), "DELTASYNC_CACHE": str(cache)})
    environment.update(github or {})
    return subprocess.run(["bash", str(SCRIPT), *arguments], capture_output=True, text=True, env=environment,
                          timeout=timeout)


def github_files(tmp_path):
    files = {name: tmp_path / name.lower() for name in ("GITHUB_OUTPUT", "GITHUB_PATH", "GITHUB_ENV")}
    for path in files.values():
        path.write_text("")
    return {name: str(path) for name, path in files.items()}


def test_the_artifact_holds_the_stamped_server_its_checksum_and_what_a_release_ships(releases, tmp_path):
    sums = (releases / "SHA256SUMS").read_text()
    checked = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=releases, capture_output=True, text=True)
    assert checked.returncode == 0 and f"{ARTIFACT}.tar.gz: OK" in checked.stdout, checked.stdout + checked.stderr
    assert sums.count("\n") == 1
    with tarfile.open(releases / f"{ARTIFACT}.tar.gz") as archive:
        names = set(archive.getnames())
        archive.extractall(tmp_path, filter="tar")
    for name in ("deltasync", "schema.graphql", "LICENSE", "THIRD-PARTY-NOTICES", "README.md", "NEEDED",
                 "completions/deltasync.bash", "completions/_deltasync", "completions/deltasync.fish"):
        assert f"{ARTIFACT}/{name}" in names, name
    folder = tmp_path / ARTIFACT
    version = subprocess.run([str(folder / "deltasync"), "--version"], capture_output=True, text=True, timeout=60)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    assert re.fullmatch(rf"deltasync {re.escape(VERSION)} \(commit {commit}(-dirty)?, built \d{{4}}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)\n",
                        version.stdout), version.stdout
    assert "serve" in (folder / "completions" / "deltasync.bash").read_text()
    assert re.search(r"^libsqlite3\.so\.0\tlibsqlite3-0$", (folder / "NEEDED").read_text(), re.MULTILINE)
    assert "GRDB" in (folder / "THIRD-PARTY-NOTICES").read_text()
    assert "Apache License" in (folder / "LICENSE").read_text()
    # The staged server in the source tree is not stamped: only the artifact's copy is.
    assert "built from source" in subprocess.run([str(STAGED / "deltasync"), "--version"], capture_output=True,
                                                 text=True, timeout=60).stdout


def test_install_verifies_the_checksum_and_then_uses_its_cache(releases, tmp_path):
    github = github_files(tmp_path)
    cache = tmp_path / "cache"
    installed = run_script("install", releases=releases, cache=cache, github=github)
    assert installed.returncode == 0, installed.stderr
    folder = Path(installed.stdout.strip().splitlines()[-1])
    assert folder == cache / VERSION / platform()
    assert Path(github["GITHUB_PATH"]).read_text().strip() == str(folder)
    expected = hashlib.sha256((releases / f"{ARTIFACT}.tar.gz").read_bytes()).hexdigest()
    assert (folder / ".sha256").read_text().strip() == expected
    # Offline now: the release folder is gone, the cache answers the pinned version.
    pinned = subprocess.run(["bash", str(SCRIPT), "install"], capture_output=True, text=True, timeout=60, env={
        **{k: v for k, v in os.environ.items() if not k.startswith("DELTASYNC_")},
        "DELTASYNC_RELEASES": str(tmp_path / "no-such-folder"), "DELTASYNC_CACHE": str(cache),
        "DELTASYNC_VERSION": f"v{VERSION}"})
    assert pinned.returncode == 0, pinned.stderr
    assert "from the cache" in pinned.stderr and pinned.stdout.strip() == str(folder)


def test_a_damaged_download_installs_nothing(releases, tmp_path):
    damaged = tmp_path / "damaged"
    shutil.copytree(releases, damaged)
    artifact = damaged / f"{ARTIFACT}.tar.gz"
    data = bytearray(artifact.read_bytes())
    data[len(data) // 2] ^= 0xFF
    artifact.write_bytes(bytes(data))
    cache = tmp_path / "cache"
    installed = run_script("install", releases=damaged, cache=cache)
    assert installed.returncode == 1
    assert f"{ARTIFACT}.tar.gz does not match SHA256SUMS" in installed.stderr
    assert not (cache / VERSION).exists()


def test_latest_is_the_highest_version_in_the_folder(releases, tmp_path):
    folder = tmp_path / "several"
    folder.mkdir()
    for version in ("1.9.0", "1.10.0", "1.2.3"):
        (folder / f"deltasync-{version}-{platform()}.tar.gz").write_bytes(b"")
    resolved = run_script("resolve", releases=folder, cache=tmp_path / "cache")
    assert resolved.returncode == 0 and resolved.stdout.strip() == "1.10.0", resolved.stderr
    empty = run_script("resolve", releases=tmp_path, cache=tmp_path / "cache")
    assert empty.returncode == 1 and f"no deltasync-*-{platform()}.tar.gz in" in empty.stderr


def test_exec_runs_the_command_against_a_server_and_returns_its_status(releases, tmp_path):
    probe = ("import json, os, sys, urllib.request\n"
             "request = urllib.request.Request(os.environ['DELTASYNC_URL'], method='POST', headers={"
             "'x-api-key': os.environ['DELTASYNC_API_KEY'], 'content-type': 'application/json'}, data=json.dumps({"
             "'query': 'mutation { createBlog(input: {name: \"from CI\"}) { name _version } }'}).encode())\n"
             "print(json.load(urllib.request.urlopen(request))['data']['createBlog'])\n"
             "sys.exit(7)\n")
    ran = run_script("exec", "--schema", str(EXAMPLE_SCHEMA), "--in-memory", "--port", "0", "--",
                     "python3", "-c", probe, releases=releases, cache=tmp_path / "cache")
    assert ran.returncode == 7, ran.stdout + ran.stderr
    assert "{'name': 'from CI', '_version': 1}" in ran.stdout


def test_serve_starts_a_server_for_later_steps_and_writes_its_outputs(releases, tmp_path):
    github = github_files(tmp_path)
    started = run_script("serve", "--schema", str(EXAMPLE_SCHEMA), "--in-memory", "--port", "0",
                         releases=releases, cache=tmp_path / "cache", github=github)
    assert started.returncode == 0, started.stderr
    outputs = dict(line.split("=", 1) for line in Path(github["GITHUB_OUTPUT"]).read_text().splitlines())
    pid = int(outputs["pid"])
    try:
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/graphql", outputs["url"]), outputs
        assert outputs["realtime-url"] == outputs["url"].replace("http://", "ws://")
        assert outputs["api-key"].startswith("da2-") and outputs["admin-key"].startswith("dsa-")
        environment = dict(line.split("=", 1) for line in Path(github["GITHUB_ENV"]).read_text().splitlines())
        assert environment["DELTASYNC_URL"] == outputs["url"]
        request = urllib.request.Request(outputs["url"], method="POST", data=json.dumps(
            {"query": "{ listBlogs { items { id } } }"}).encode(), headers={
            "x-api-key": outputs["api-key"], "content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            assert json.load(response) == {"data": {"listBlogs": {"items": []}}}
    finally:
        os.kill(pid, signal.SIGTERM)


def test_the_homebrew_formula_names_each_platforms_artifact_and_checksum(releases, tmp_path):
    sums = tmp_path / "SHA256SUMS"
    ours = (releases / "SHA256SUMS").read_text().split()[0]
    others = {"macos-universal": "a" * 64, "linux-x86_64": "b" * 64, "linux-arm64": "c" * 64}
    others[platform()] = ours
    sums.write_text("".join(f"{digest}  deltasync-{VERSION}-{name}.tar.gz\n" for name, digest in others.items()))
    made = subprocess.run(["python3", str(ROOT / "scripts" / "homebrew-formula.py"), VERSION, str(sums)],
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    formula = made.stdout
    for name, digest in others.items():
        url = f"https://github.com/deltasync/deltasync/releases/download/v{VERSION}/deltasync-{VERSION}-{name}.tar.gz"
        assert f'url "{url}"\n' in formula and f'sha256 "{digest}"' in formula
        assert formula.index(url) < formula.index(digest)
    assert 'bin.install "deltasync"' in formula and 'zsh_completion.install "completions/_deltasync"' in formula
    # A release missing a platform's artifact gets no formula.
    sums.write_text(f"{ours}  deltasync-{VERSION}-{platform()}.tar.gz\n")
    refused = subprocess.run(["python3", str(ROOT / "scripts" / "homebrew-formula.py"), VERSION, str(sums)],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 1 and "lists no" in refused.stderr


def action_step(step_id):
    """The shell of action.yml's step `step_id` (its `run: |` block), as GitHub runs it with bash."""
    lines = (ROOT / "action.yml").read_text().splitlines()
    start = lines.index(f"    - id: {step_id}")
    run = next(n for n in range(start + 1, len(lines)) if lines[n].strip().startswith("run:"))
    if lines[run].strip() != "run: |":
        return lines[run].split("run:", 1)[1].strip()
    body = []
    for line in lines[run + 1:]:
        if line.strip() and not line.startswith(" " * 8):
            break
        body.append(line[8:])
    return "\n".join(body)


def run_action_step(step_id, environment, tmp_path, timeout=120):
    tmp_path.mkdir(parents=True, exist_ok=True)
    github = github_files(tmp_path)
    variables = {key: value for key, value in os.environ.items() if not key.startswith(("GITHUB_", "DELTASYNC_"))}
    variables.update(github)
    variables.update({"GITHUB_ACTION_PATH": str(ROOT), "DELTASYNC_CACHE": str(tmp_path / "cache")})
    variables.update(environment)
    # As GitHub runs a `shell: bash` step.
    ran = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", action_step(step_id)],
                         capture_output=True, text=True, env=variables, timeout=timeout)
    outputs = dict(line.split("=", 1) for line in Path(github["GITHUB_OUTPUT"]).read_text().splitlines() if "=" in line)
    return ran, outputs


def test_the_actions_steps_resolve_then_exec_or_serve(releases, tmp_path):
    """action.yml's own shell, with the environment GitHub gives it for these inputs."""
    resolved, outputs = run_action_step("resolve", {"DELTASYNC_VERSION": "latest", "DELTASYNC_RELEASES": str(releases)},
                                        tmp_path)
    assert resolved.returncode == 0 and outputs == {"version": VERSION}, resolved.stderr
    inputs = {"DELTASYNC_VERSION": VERSION, "DELTASYNC_RELEASES": str(releases), "SCHEMA": str(EXAMPLE_SCHEMA),
              "PORT": "0", "ARGS": "--in-memory --log-level warning", "DELTASYNC_API_KEY": "da2-fromtheworkflow000000000",
              "DELTASYNC_ADMIN_KEY": ""}
    probe = 'test "$DELTASYNC_API_KEY" = da2-fromtheworkflow000000000 && curl -fsS -o /dev/null "${DELTASYNC_URL%/graphql}/health/ready" && exit 4'
    executed, _ = run_action_step("serve", {**inputs, "RUN": probe}, tmp_path / "exec")
    assert executed.returncode == 4, executed.stdout + executed.stderr
    served, outputs = run_action_step("serve", {**inputs, "RUN": ""}, tmp_path / "serve")
    assert served.returncode == 0, served.stderr
    try:
        assert outputs["api-key"] == "da2-fromtheworkflow000000000"
        with urllib.request.urlopen(outputs["url"].replace("/graphql", "/health/ready"), timeout=30) as response:
            assert response.status == 200
    finally:
        os.kill(int(outputs["pid"]), signal.SIGTERM)
