"""An Amplify Gen 1 API folder's resolver files (slots, an override, a custom stack's unit and
pipeline resolvers over the model table, an APPSYNC_JS resolver, a Node Lambda and an OpenSearch
data source) served by the real `deltasync serve --project`, with Python gql as the client."""

import asyncio
import shutil
from pathlib import Path

import pytest
from gql import Client, GraphQLRequest
from gql.transport.aiohttp import AIOHTTPTransport
from gql.transport.appsync_auth import AppSyncApiKeyAuthentication
from gql.transport.appsync_websockets import AppSyncWebsocketsTransport
from gql.transport.exceptions import TransportQueryError

from conftest import API_KEY, until_subscribed

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "resolvers-app"
API = "amplify/backend/api/todoapi"


@pytest.fixture
def root(tmp_path):
    root = tmp_path / "app"
    shutil.copytree(FIXTURE, root)
    return root


@pytest.fixture
def server(root, server_factory):
    return server_factory(schema_args=["--project", str(root / API)])


def http(server):
    auth = AppSyncApiKeyAuthentication(host=server.host, api_key=API_KEY)
    return Client(transport=AIOHTTPTransport(url=server.url, auth=auth), fetch_schema_from_transport=False)


def run(server, query, variables=None):
    async def go():
        async with http(server) as session:
            return await session.execute(GraphQLRequest(query, variable_values=variables))
    return asyncio.run(go())


CREATE = "mutation($i: CreateTodoInput!) { createTodo(input: $i) { id name priority done _version } }"


def test_serve_says_what_it_runs_and_what_it_does_not(server):
    banner = "".join(server.banner)
    assert "running its resolver files: 1 overrides, 4 slot functions, " in banner
    assert "custom resolvers" in banner
    assert "stacks/CustomResources.json#SearchDataSource: not run: a AMAZON_OPENSEARCH_SERVICE data source" in banner


def test_slots_and_an_override_change_the_generated_resolvers(server):
    assert run(server, CREATE, {"i": {"id": "a", "name": "buy milk"}})["createTodo"]["priority"] == 3
    run(server, CREATE, {"i": {"id": "b", "name": "buy eggs", "done": True}})
    listed = run(server, "{ listTodos { items { id } } }")["listTodos"]["items"]
    assert listed == [{"id": "a"}]
    assert run(server, '{ getTodo(id: "a") { name _version } }')["getTodo"] == {"name": "buy milk (checked)", "_version": 1}


def test_a_custom_pipeline_runs_a_template_then_the_projects_node_function(server):
    for n, name in enumerate(["buy milk", "call mum", "buy eggs"]):
        run(server, CREATE, {"i": {"id": f"t{n}", "name": name}})
    summary = run(server, '{ todoSummary(prefix: "buy") { count names by } }')["todoSummary"]
    assert summary == {"count": 2, "names": ["buy eggs", "buy milk"], "by": "lambda"}


def test_an_appsync_js_resolver_counts_the_models_table(server):
    for n, done in enumerate([False, True, False]):
        run(server, CREATE, {"i": {"id": f"t{n}", "name": f"todo {n}", "done": done}})
    assert run(server, "{ todoCount }")["todoCount"] == 3
    assert run(server, "{ todoCount(done: true) }")["todoCount"] == 1


def test_a_failed_condition_asks_the_projects_node_handler_which_retries_or_discards(server):
    run(server, CREATE, {"i": {"id": "r", "name": "milk"}})
    rename = "mutation($n: String!, $f: String!, $v: Int!) { renameTodo(id: \"r\", name: $n, from: $f, version: $v) { name _version } }"
    assert run(server, rename, {"n": "oat milk", "f": "milk", "v": 1})["renameTodo"] == {"name": "oat milk", "_version": 2}
    # Renamed meanwhile: the condition fails, and keepBothNames retries with both names.
    assert run(server, rename, {"n": "soy milk", "f": "milk", "v": 2})["renameTodo"] == {"name": "oat milk / soy milk", "_version": 3}
    # "discard": the stored item, no error, nothing written.
    assert run(server, rename, {"n": "discard", "f": "milk", "v": 3})["renameTodo"] == {"name": "oat milk / soy milk", "_version": 3}
    with pytest.raises(TransportQueryError) as failure:
        run(server, 'mutation { renameTodo(id: "nobody", name: "x", from: "y", version: 1) { name } }')
    # A versioned table spells it as the generated resolvers do.
    assert failure.value.errors[0]["errorType"] == "ConditionalCheckFailedException"


def test_a_field_over_a_data_source_that_does_not_run_answers_unsupported_operation(server):
    with pytest.raises(TransportQueryError) as failure:
        run(server, '{ searchTodos(text: "milk") { id } }')
    assert failure.value.errors[0]["errorType"] == "UnsupportedOperation"


def test_a_custom_mutations_write_reaches_its_subscribers_with_a_version(server):
    async def scenario():
        auth = AppSyncApiKeyAuthentication(host=server.host, api_key=API_KEY)
        realtime = Client(transport=AppSyncWebsocketsTransport(url=f"ws://{server.host}/graphql", auth=auth))
        async with realtime as session, http(server) as mutations:
            queue = asyncio.Queue()

            async def consume():
                async for result in session.subscribe(GraphQLRequest("subscription { onQuickTodo { id name _version } }")):
                    await queue.put(result)

            task = asyncio.create_task(consume())
            quick = 'mutation($n: String!) { quickTodo(name: $n) { id name _version } }'

            async def create(n):
                await mutations.execute(GraphQLRequest(quick, variable_values={"n": f"warm-{n}"}))

            await until_subscribed(create, queue)
            written = (await mutations.execute(GraphQLRequest(quick, variable_values={"n": "quick"})))["quickTodo"]
            received = await asyncio.wait_for(queue.get(), 10)
            assert received == {"onQuickTodo": written}
            assert written["name"] == "quick" and written["_version"] == 1
            task.cancel()

    asyncio.run(scenario())


def test_a_template_that_does_not_parse_stops_the_start_with_its_file_line_and_column(root, server_factory):
    (root / API / "resolvers" / "Query.listTodos.preDataLoad.1.req.vtl").write_text("{}\n#if($ctx.args")
    with pytest.raises(RuntimeError) as failure:
        server_factory(schema_args=["--project", str(root / API)])
    assert "resolvers/Query.listTodos.preDataLoad.1.req.vtl line 2, column 14" in str(failure.value)
