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
