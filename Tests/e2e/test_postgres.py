"""Two `deltasync serve` processes on one PostgreSQL database (`--database`), with Python gql:
what one instance writes the other reads and delta-syncs, versions are never given twice, a
`kill -9` loses no acknowledged mutation, and an unreachable database stops the start clearly."""

import asyncio
import os
import subprocess
import uuid

import pytest
from gql import Client, GraphQLRequest
from gql.transport.aiohttp import AIOHTTPTransport
from gql.transport.appsync_auth import AppSyncApiKeyAuthentication
from gql.transport.exceptions import TransportQueryError

from conftest import API_KEY, BINARY, EXAMPLE_SCHEMA, ROOT, cluster_url

@pytest.fixture
def database():
    """A PostgreSQL schema of this test's own on the shared cluster."""
    return f"{cluster_url()}?schema=e2e_{uuid.uuid4().hex[:12]}"


def start(server_factory, database):
    return server_factory(schema_args=["--schema", str(EXAMPLE_SCHEMA), "--database", database])


def run(server, query, variables=None):
    async def go():
        auth = AppSyncApiKeyAuthentication(host=server.host, api_key=API_KEY)
        async with Client(transport=AIOHTTPTransport(url=server.url, auth=auth), fetch_schema_from_transport=False) as s:
            return await s.execute(GraphQLRequest(query, variable_values=variables))
    return asyncio.run(go())


def test_what_one_instance_writes_the_other_reads_and_delta_syncs(server_factory, database):
    a, b = start(server_factory, database), start(server_factory, database)
    started = run(b, "{ syncBlogs { items { id } startedAt } }")["syncBlogs"]["startedAt"]
    run(a, 'mutation { createBlog(input: {id: "b1", name: "Notes"}) { id } }')
    assert run(b, '{ getBlog(id: "b1") { name _version } }') == {"getBlog": {"name": "Notes", "_version": 1}}
    delta = run(b, "query($t: AWSTimestamp) { syncBlogs(lastSync: $t) { items { id name } } }", {"t": started})
    assert delta["syncBlogs"]["items"] == [{"id": "b1", "name": "Notes"}]
    updated = run(b, 'mutation { updateBlog(input: {id: "b1", name: "Edited", _version: 1}) { _version } }')
    assert updated == {"updateBlog": {"_version": 2}}
    assert run(a, '{ getBlog(id: "b1") { name _version } }') == {"getBlog": {"name": "Edited", "_version": 2}}


def test_concurrent_writers_on_both_instances_never_reuse_a_version(server_factory, database):
    a, b = start(server_factory, database), start(server_factory, database)
    run(a, 'mutation { createBlog(input: {id: "hot", name: "0"}) { id } }')
    update = "mutation($n: String!, $v: Int!) { updateBlog(input: {id: \"hot\", name: $n, _version: $v}) { _version } }"

    async def writer(server, label):
        auth = AppSyncApiKeyAuthentication(host=server.host, api_key=API_KEY)
        versions = []
        async with Client(transport=AIOHTTPTransport(url=server.url, auth=auth), fetch_schema_from_transport=False) as s:
            for n in range(25):
                current = (await s.execute(GraphQLRequest('{ getBlog(id: "hot") { _version } }')))["getBlog"]["_version"]
                try:
                    result = await s.execute(GraphQLRequest(update, variable_values={"n": f"{label}{n}", "v": current}))
                    versions.append(result["updateBlog"]["_version"])
                except TransportQueryError as error:
                    # Another instance wrote in between: AppSync's conflict answer, nothing written.
                    assert error.errors[0]["errorType"] in ("ConflictUnhandled", "ConditionalCheckFailedException"), error.errors
        return versions

    async def both():
        return await asyncio.gather(writer(a, "a"), writer(b, "b"))

    from_a, from_b = asyncio.run(both())
    given = from_a + from_b
    assert len(given) == len(set(given)), "a version was given twice"
    final = run(a, '{ getBlog(id: "hot") { _version } }')["getBlog"]["_version"]
    assert final == 1 + len(given)


def test_kill_9_of_one_instance_loses_no_acknowledged_mutation(server_factory, database):
    a, b = start(server_factory, database), start(server_factory, database)
    for n in range(20):
        run(a, "mutation($i: CreateBlogInput!) { createBlog(input: $i) { id } }", {"i": {"id": f"k{n}", "name": f"n{n}"}})
    a.kill9()
    items = run(b, "{ listBlogs(limit: 100) { items { id } } }")["listBlogs"]["items"]
    assert sorted(item["id"] for item in items) == sorted(f"k{n}" for n in range(20))


def test_an_unreachable_database_stops_the_start_with_a_clear_error():
    started = subprocess.run(
        [str(BINARY), "serve", "--schema", str(EXAMPLE_SCHEMA), "--database", "postgres://nobody@127.0.0.1:1/none", "--port", "0"],
        capture_output=True, text=True, timeout=60)
    assert started.returncode != 0
    assert "Cannot connect to PostgreSQL at 127.0.0.1:1" in started.stderr


def test_a_subscriber_on_one_instance_receives_the_other_instances_mutations(server_factory, database):
    from test_gql_realtime import CREATE_POST, ON_CREATE, consume, http, realtime, until_subscribed

    a, b = start(server_factory, database), start(server_factory, database)

    async def scenario():
        async with realtime(b) as session, http(a) as on_a:
            queue = asyncio.Queue()
            task = asyncio.create_task(consume(session, GraphQLRequest(ON_CREATE), queue))
            await until_subscribed(on_a, [queue])
            for n in range(5):
                await on_a.execute(GraphQLRequest(CREATE_POST, variable_values={
                    "i": {"id": f"x{n}", "blogID": "b1", "title": f"from A {n}", "rating": n}}))
            received = [await asyncio.wait_for(queue.get(), 10) for _ in range(5)]
            assert [r["onCreatePost"]["id"] for r in received] == [f"x{n}" for n in range(5)]
            assert received[0]["onCreatePost"] == {
                "__typename": "Post", "id": "x0", "title": "from A 0", "rating": 0, "_version": 1}
            task.cancel()

    asyncio.run(scenario())


def post(server, query, variables=None):
    """The raw HTTP answer: status, headers and JSON body (gql raises on a 503)."""
    import json
    import urllib.error
    import urllib.request

    request = urllib.request.Request(
        server.url, data=json.dumps({"query": query, "variables": variables or {}}).encode(),
        headers={"content-type": "application/json", "x-api-key": API_KEY})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.headers, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, error.headers, json.loads(error.read())


def health(server, which):
    """`GET /health/<which>`: status and JSON body."""
    import json
    import urllib.error
    import urllib.request

    url = server.url.rsplit("/graphql", 1)[0] + "/health/" + which
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_the_database_going_away_answers_503_and_serving_recovers_when_it_returns(server_factory):
    """A cluster of this test's own, stopped and started again under two running instances."""
    import tempfile

    script = str(ROOT / "scripts" / "postgres-cluster.sh")
    # Not pytest's tmp_path: as root the cluster runs as `postgres`, who cannot enter root's folders.
    folder = tempfile.mkdtemp(prefix="deltasync-pg-outage.")
    url = subprocess.run(["bash", script, "start", str(folder)], check=True, capture_output=True, text=True).stdout.strip()
    try:
        a, b = (server_factory(schema_args=["--schema", str(EXAMPLE_SCHEMA), "--database", f"{url}?schema=outage"])
                for _ in range(2))
        create = "mutation($i: CreateBlogInput!) { createBlog(input: $i) { id _version } }"
        assert post(a, create, {"i": {"id": "before", "name": "kept"}})[0] == 200

        subprocess.run(["bash", script, "down", str(folder)], check=True)
        status, headers, body = post(a, create, {"i": {"id": "during", "name": "refused"}})
        # A 5xx, which DataStore clients back off and retry; an error in a 200 they would drop.
        assert status == 503, body
        assert headers["Retry-After"] == "1"
        assert body["errors"][0]["errorType"] == "ServiceUnavailableException"
        assert "PostgreSQL" in body["errors"][0]["message"]
        assert post(b, '{ getBlog(id: "before") { id } }')[0] == 503
        assert a.process.poll() is None and b.process.poll() is None, "an instance exited"
        # Not ready (a load balancer sends requests elsewhere), but alive (a restart would not help).
        for server in (a, b):
            status, body = health(server, "ready")
            assert status == 503 and body["status"] == "unavailable", body
            assert body["reason"], body
            assert health(server, "live") == (200, {"status": "ok"})

        subprocess.run(["bash", script, "up", str(folder)], check=True)
        # Each instance reconnects on its own schedule: retry as a client would, until it answers.
        for server in (a, b):
            for _ in range(60):
                status, _, body = post(server, '{ getBlog(id: "before") { name } }')
                if status == 200:
                    break
                asyncio.run(asyncio.sleep(0.5))
            assert body == {"data": {"getBlog": {"name": "kept"}}}
            # Ready again once the instance has a connection (its listener's may come a moment later).
            for _ in range(60):
                if health(server, "ready")[0] == 200:
                    break
                asyncio.run(asyncio.sleep(0.5))
            assert health(server, "ready") == (200, {"status": "ok"})
        assert post(a, create, {"i": {"id": "after", "name": "written"}})[0] == 200
        assert post(b, '{ getBlog(id: "during") { id } }')[2] == {"data": {"getBlog": None}}

        # Realtime across the instances works again: B's listener reconnected.
        from test_gql_realtime import ON_CREATE, consume, http, realtime, until_subscribed

        async def scenario():
            async with realtime(b) as session, http(a) as on_a:
                queue = asyncio.Queue()
                task = asyncio.create_task(consume(session, GraphQLRequest(ON_CREATE), queue))
                await until_subscribed(on_a, [queue])
                task.cancel()

        asyncio.run(scenario())
    finally:
        subprocess.run(["bash", script, "stop", str(folder)], check=False)
