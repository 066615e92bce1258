#!/usr/bin/env python3
"""The cost of the worst requests the server accepts under its default limits, and how a
trivial query fares while two of them run.

    swift build -c release --product deltasync
    python3 scripts/worst-request.py [path/to/deltasync] [-- serve options...]

Starts the release binary on a free port with an in-memory store, seeds 2,000 posts, then for
each worst-case request prints the server's CPU time for it and its peak resident memory, and
finally the p50/p99 of a trivial `getPost` alone (the baseline) and while two clients send the
worst request in a loop; then the resident size when idle after seeding, at the end of the run
and ten idle seconds later (how much of the peak the process gives back). Options after `--` go
to `deltasync serve` (`--keep-freed-memory` for the comparison). Figures go to docs/benchmarks.md.
"""
import http.client
import json
import os
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_probe import cpu_seconds, free_port, resident_mb, serve  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARGS = sys.argv[1:sys.argv.index("--")] if "--" in sys.argv else sys.argv[1:]
SERVE_OPTIONS = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
BIN = ARGS[0] if ARGS else os.path.join(ROOT, ".build/release/deltasync")
KEY = "da2-worstrequest000000000000"


class Client:
    def __init__(self, port):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def post(self, query, variables=None):
        body = json.dumps({"query": query, "variables": variables or {}})
        self.connection.request("POST", "/graphql", body, {"x-api-key": KEY, "content-type": "application/json"})
        response = self.connection.getresponse()
        return response.status, json.loads(response.read())


def process_stats(pid):
    """(CPU seconds used so far, peak resident MB)."""
    return cpu_seconds(pid), resident_mb(pid, "VmHWM")


def main():
    port = free_port()
    server = serve(BIN, port, os.path.join(ROOT, "Examples/blog/schema.graphql"), KEY, SERVE_OPTIONS)
    try:
        client = Client(port)
        client.post('mutation { createBlog(input: {id: "b1", name: "B"}) { id } }')
        create = "mutation($i: CreatePostInput!) { createPost(input: $i) { id } }"
        for i in range(2000):
            client.post(create, {"i": {"id": f"p{i}", "blogID": "b1", "title": "t" * 100,
                                       "publishedAt": "2026-01-01T00:00:00Z", "rating": i % 5}})
        cpu0, peak0 = process_stats(server.pid)
        idle = resident_mb(server.pid)
        print(f"after seeding 2,000 posts: peak RSS {peak0:.0f} MB, resident {idle:.0f} MB")

        fan_out = ('{ getBlog(id: "b1") { posts(limit: 1000) { items { blog { posts(limit: 1000) '
                   '{ items { blog { posts(limit: 1000) { items { id } } } } } } } } } }')
        aliases = "{ " + " ".join(f"a{i}: listPosts(limit: 1000) {{ items {{ id title rating }} }}" for i in range(12)) + " }"
        big_or = ("query($f: ModelPostFilterInput) { listPosts(limit: 1000, filter: $f) { items { id } } }",
                  {"f": {"or": [{"rating": {"eq": i % 5}} for i in range(300)]}})
        worst = [("nested connections (stops at the item budget)", fan_out, None),
                 ("12 aliases of listPosts(limit: 1000) (12,000 items, the item budget)", aliases, None),
                 ("an or of 300 conditions (the filter limit)", big_or[0], big_or[1]),
                 ("a page of 1,000 posts, each with its blog (a query's relation reads are shared)",
                  "{ listPosts(limit: 1000) { items { id title blog { id name } } } }", None)]
        for name, query, variables in worst:
            before, _ = process_stats(server.pid)
            started = time.perf_counter()
            status, body = client.post(query, variables)
            wall = time.perf_counter() - started
            after, peak = process_stats(server.pid)
            errors = [e.get("errorType") for e in body.get("errors", [])][:1]
            print(f"{name}: HTTP {status}, {wall * 1000:.0f} ms, server CPU {(after - before) * 1000:.0f} ms, "
                  f"peak RSS {peak:.0f} MB, first error {errors}")

        def trivial_latencies(count):
            c = Client(port)
            samples = []
            for i in range(count):
                started = time.perf_counter()
                c.post('query($id: ID!) { getPost(id: $id) { id title } }', {"id": f"p{i % 2000}"})
                samples.append((time.perf_counter() - started) * 1000)
            samples.sort()
            return statistics.median(samples), samples[int(len(samples) * 0.99) - 1]

        base50, base99 = trivial_latencies(500)
        print(f"trivial getPost alone (baseline): p50 {base50:.2f} ms, p99 {base99:.2f} ms")
        for name, query in [("the 12-alias request", aliases), ("the nested connections", fan_out)]:
            stop = threading.Event()

            def hammer():
                c = Client(port)
                while not stop.is_set():
                    c.post(query)

            workers = [threading.Thread(target=hammer) for _ in range(2)]
            for w in workers:
                w.start()
            time.sleep(0.5)
            load50, load99 = trivial_latencies(300)
            stop.set()
            for w in workers:
                w.join()
            print(f"trivial getPost while two clients loop {name}: p50 {load50:.2f} ms, p99 {load99:.2f} ms")
        _, peak = process_stats(server.pid)
        ended = resident_mb(server.pid)
        # Ten idle seconds: the time the process has to give back what the run took.
        time.sleep(10)
        later = resident_mb(server.pid)
        print(f"peak RSS over the whole run: {peak:.0f} MB; resident at its end {ended:.0f} MB, ten idle seconds "
              f"later {later:.0f} MB ({later - idle:+.0f} MB against idle after seeding)")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
