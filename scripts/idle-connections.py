#!/usr/bin/env python3
"""Memory of idle realtime connections, and where it goes.

    python3 scripts/idle-connections.py [binary] [--connections N] [--heaptrack FILE]

Starts `binary serve` (default .build/release/deltasync) in memory on the example schema, opens N
WebSocket connections (default 5,000), each acknowledged with one subscription, and prints the
server's resident memory before and after, per connection. With --heaptrack the server runs
under heaptrack and its record is written to FILE.zst: `heaptrack_print -f FILE.zst -p 1 -a 0 -T 0`
lists the peak's allocations by call site (an idle connection's memory is mostly the stack
memory its task keeps: `swift::StackAllocator`). RealtimeBenchmark measures the same thing
beside its latency figures; this script is the quick loop for one change.
"""
import argparse
import asyncio
import base64
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_probe import free_port, resident_mb  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
API_KEY = "da2-idle"


async def connect(url, host):
    import websockets
    socket = await websockets.connect(url, subprotocols=["graphql-ws"], max_queue=None)
    await socket.send(json.dumps({"type": "connection_init"}))
    while json.loads(await socket.recv())["type"] != "connection_ack":
        pass
    await socket.send(json.dumps({"id": "1", "type": "start", "payload": {
        "data": json.dumps({"query": "subscription { onCreatePost { id title } }", "variables": {}}),
        "extensions": {"authorization": {"host": host, "x-api-key": API_KEY}}}}))
    while json.loads(await socket.recv())["type"] != "start_ack":
        pass
    return socket


async def hold(port, count, pid):
    host = f"127.0.0.1:{port}"
    header = base64.b64encode(json.dumps({"host": host, "x-api-key": API_KEY}).encode()).decode()
    url = f"ws://{host}/graphql?header={header}&payload=e30="
    before = resident_mb(pid)
    sockets = []
    for start in range(0, count, 200):
        sockets += await asyncio.gather(*(connect(url, host) for _ in range(start, min(count, start + 200))))
    await asyncio.sleep(1)
    after = resident_mb(pid)
    print(f"resident {before:.1f} MB with none, {after:.1f} MB with {count} connections: "
          f"{(after - before) * 1024 / count:.1f} KB each")
    for socket in sockets:
        await socket.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary", nargs="?", default=os.path.join(ROOT, ".build/release/deltasync"))
    parser.add_argument("--connections", type=int, default=5000)
    parser.add_argument("--heaptrack", metavar="FILE")
    options = parser.parse_args()
    port = free_port()
    command = [options.binary, "serve", "--schema", os.path.join(ROOT, "Examples/blog/schema.graphql"), "--in-memory",
               "--port", str(port), "--api-key", API_KEY, "--log-level", "error"]
    if options.heaptrack:
        command = ["heaptrack", "-o", options.heaptrack] + command
    launched = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = None
    for _ in range(300):
        # Under heaptrack the server is the wrapper's child: measure that process.
        found = subprocess.run(["pgrep", "-f", f"^{options.binary} serve .*--port {port} "], capture_output=True, text=True)
        if found.stdout.split():
            server = int(found.stdout.split()[0])
            try:
                import socket
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                pass
        time.sleep(0.1)
    if server is None:
        sys.exit("the server did not start")
    try:
        asyncio.run(hold(port, options.connections, server))
    finally:
        os.kill(server, signal.SIGINT)
        launched.wait(timeout=60)


if __name__ == "__main__":
    main()
