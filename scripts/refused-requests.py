#!/usr/bin/env python3
"""What a refused request costs the server (issue #42, target 4: under 100 ms of CPU each).

    swift build -c release --product deltasync
    python3 scripts/refused-requests.py [path/to/deltasync] [--runs N]

Starts the release binary on a free port with an in-memory store and the blog example, then
sends each request the default limits refuse (within the 5 MiB body limit, so that each reaches
the GraphQL layer) and reads the server's CPU time for it from /proc: the median of N runs
(default 5) beside the same run's trivial `getPost` (the baseline). Figures go to
docs/benchmarks.md.
"""
import http.client
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_probe import cpu_seconds, free_port, serve  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARGS = [a for a in sys.argv[1:] if not a.startswith("--") and not a.isdigit()]
RUNS = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 5
BIN = ARGS[0] if ARGS else os.path.join(ROOT, ".build/release/deltasync")
KEY = "da2-refusedrequests0000000000"


def clauses(n):
    return {"or": [{"rating": {"eq": i % 5}} for i in range(n)]}


def requests():
    """(name, query, variables, the errorType or message start the refusal must carry)."""
    list_query = "query($f: ModelPostFilterInput) { listPosts(filter: $f) { items { id } } }"
    sync_query = "query($f: ModelPostFilterInput) { syncPosts(filter: $f) { items { id } } }"
    update = "mutation($i: UpdatePostInput!, $c: ModelPostConditionInput) { updatePost(input: $i, condition: $c) { id } }"
    # As text: Python's encoder recurses once per level.
    nested = '{"f": ' + '{"not": ' * 5000 + '{"rating": {"eq": 1}}' + "}" * 5000 + "}"
    return [
        ("listPosts, an or of 100,000 conditions in variables", list_query, {"f": clauses(100_000)}, "InvalidArgumentException"),
        ("syncPosts, an or of 100,000 conditions in variables", sync_query, {"f": clauses(100_000)}, "InvalidArgumentException"),
        ("updatePost, a condition of 100,000 conditions", update, {"i": {"id": "p1", "title": "x"}, "c": clauses(100_000)},
         "InvalidArgumentException"),
        # The JSON reader refuses it: no GraphQL is reached.
        ("listPosts, 5,000 nested nots in variables", list_query, nested, "MalformedHttpRequestException"),
        ("listPosts, an and of 200,000 conditions", list_query, {"f": {"and": [{"title": {"eq": "t"}}] * 200_000}}, "InvalidArgumentException"),
        ("60,000 aliases of getPost", "{ " + " ".join(f"a{i}: getPost(id: \"p1\") {{ id }}" for i in range(60_000)) + " }", None,
         "Validation error"),
        ("a selection nested 100,000 levels", "{" * 100_000 + "}" * 100_000, None, "Validation error"),
    ]


def main():
    port = free_port()
    server = serve(BIN, port, os.path.join(ROOT, "Examples/blog/schema.graphql"), KEY)
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)

        def post(body):
            connection.request("POST", "/graphql", body, {"x-api-key": KEY, "content-type": "application/json"})
            response = connection.getresponse()
            return response.status, response.read()

        post(json.dumps({"query": 'mutation { createPost(input: {id: "p1", blogID: "b1", title: "t", rating: 1}) { id } }'}))
        trivial = json.dumps({"query": '{ getPost(id: "p1") { id title } }'})

        def cost(body):
            before = cpu_seconds(server.pid)
            started = time.perf_counter()
            status, answer = post(body)
            return cpu_seconds(server.pid) - before, time.perf_counter() - started, status, answer

        baseline = statistics.median(cost(trivial)[0] for _ in range(50))
        print(f"trivial getPost (baseline): server CPU {baseline * 1000:.1f} ms (median of 50; /proc counts 10 ms ticks)")
        for name, query, variables, expected in requests():
            encoded = variables if isinstance(variables, str) else json.dumps(variables or {})
            body = '{"query": ' + json.dumps(query) + ', "variables": ' + encoded + "}"
            runs = [cost(body) for _ in range(RUNS)]
            cpu = statistics.median(r[0] for r in runs)
            wall = statistics.median(r[1] for r in runs)
            status, answer = runs[-1][2], runs[-1][3].decode()
            refused = expected in answer
            print(f"{name} ({len(body) / 1e6:.1f} MB): HTTP {status}, server CPU {cpu * 1000:.0f} ms, wall {wall * 1000:.0f} ms, "
                  f"{'refused' if refused else 'NOT REFUSED AS EXPECTED: ' + answer[:200]}")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
