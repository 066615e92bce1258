"""The command line refuses bad flags with a message and a usage exit code, before serving."""
import subprocess

from conftest import BINARY, EXAMPLE_SCHEMA


def serve(*flags):
    return subprocess.run([str(BINARY), "serve", "--schema", str(EXAMPLE_SCHEMA), "--in-memory", "--port", "0", *flags],
                          capture_output=True, text=True, timeout=60)


def test_a_zero_tombstone_ttl_is_refused():
    result = serve("--tombstone-ttl", "0")
    assert result.returncode == 64
    assert "--tombstone-ttl must be longer than zero" in result.stderr


def test_a_duration_past_what_a_clock_holds_is_refused_not_a_crash():
    result = serve("--delta-ttl", "1e300d")
    assert result.returncode == 64
    assert "--delta-ttl" in result.stderr


def test_help_shows_the_library_defaults():
    result = subprocess.run([str(BINARY), "serve", "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    text = " ".join(result.stdout.split())
    for default in ["127.0.0.1", "20002", ".deltasync/deltasync.sqlite", "30m", "30d"]:
        assert f"(default: {default})" in text


def exec_(*command):
    return subprocess.run(
        [str(BINARY), "exec", "--schema", str(EXAMPLE_SCHEMA), "--in-memory", "--port", "0", "--log-level", "error",
         "--", *command],
        capture_output=True, text=True, timeout=120)


QUERY_FROM_THE_ENVIRONMENT = """
import json, os, sys, urllib.request
request = urllib.request.Request(os.environ["DELTASYNC_URL"], method="POST",
    data=json.dumps({"query": "mutation { createBlog(input: {name: \\"CI\\"}) { name } }"}).encode(),
    headers={"content-type": "application/json", "x-api-key": os.environ["DELTASYNC_API_KEY"]})
answer = json.load(urllib.request.urlopen(request))
assert os.environ["DELTASYNC_REALTIME_URL"].startswith("ws://127.0.0.1:"), os.environ["DELTASYNC_REALTIME_URL"]
print(answer["data"]["createBlog"]["name"])
sys.exit(int(sys.argv[1]))
"""


def test_exec_runs_a_command_against_a_server_started_for_it_and_exits_with_its_status():
    ok = exec_("python3", "-c", QUERY_FROM_THE_ENVIRONMENT, "0")
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.strip().endswith("CI")
    failed = exec_("python3", "-c", QUERY_FROM_THE_ENVIRONMENT, "3")
    assert failed.returncode == 3
    assert "CI" in failed.stdout


def test_exec_without_a_command_is_a_usage_error():
    result = exec_()
    assert result.returncode == 64
    assert "Give the command to run after --" in result.stderr


HEALTH = """
import os, urllib.request
base = os.environ["DELTASYNC_URL"].rsplit("/graphql", 1)[0]
for path in ("/health", "/health/live", "/health/ready"):
    assert urllib.request.urlopen(base + path).status == 200, path
"""


def test_health_endpoints_answer_once_serving():
    result = exec_("python3", "-c", HEALTH)
    assert result.returncode == 0, result.stderr


def test_serve_raises_its_open_file_limit_and_says_how_many_connections_it_holds():
    """Started under a low soft limit (as shells often start processes), the server raises it to
    the hard limit itself and sizes its connection slots from that, as its ready line says."""
    import json
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    low = 256
    if hard != resource.RLIM_INFINITY and hard <= low + 64:
        import pytest
        pytest.skip(f"the hard open-file limit ({hard}) leaves nothing to raise")
    process = subprocess.Popen(
        [str(BINARY), "serve", "--schema", str(EXAMPLE_SCHEMA), "--in-memory", "--port", "0", "--log-format", "json"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (low, hard)))
    try:
        ready = json.loads(process.stdout.readline())
        assert ready["message"] == "ready"
        # The server's own slots: the raised limit less the 64 descriptors kept for the store
        # and outgoing connections.
        assert ready["maxConnections"] > low, ready
        if hard != resource.RLIM_INFINITY:
            assert ready["maxConnections"] == min(hard, 2**31 - 1) - 64, ready
    finally:
        process.terminate()
        process.wait(timeout=30)
