"""A release `deltasync serve` for the measuring scripts (worst-request.py, refused-requests.py,
image-benchmark.py): a free port, the server started and waited for, and what /proc says of it."""
import os
import socket
import subprocess
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(binary, port, schema, api_key, options=()):
    """`binary serve` in memory on `port` with `schema` and `api_key`, returned once the port
    accepts connections (or after ten seconds)."""
    server = subprocess.Popen(
        [binary, "serve", "--schema", schema, "--in-memory", "--port", str(port), "--api-key", api_key,
         "--log-level", "error", *options],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            break
        except OSError:
            time.sleep(0.05)
    return server


def cpu_seconds(pid):
    """CPU seconds (user and system) the process used so far: /proc counts 10 ms ticks."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def resident_mb(pid, field="VmRSS"):
    """The process's resident memory now (VmRSS), or at its peak (`field="VmHWM"`), in MB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0
