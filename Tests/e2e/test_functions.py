"""`@function` fields answered by an Amplify project's own Node and Python handlers, an HTTP
endpoint and a command, through the real `deltasync serve`, with Python gql as the client."""

import asyncio
import json
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from gql import Client, GraphQLRequest
from gql.transport.aiohttp import AIOHTTPTransport
from gql.transport.appsync_auth import AppSyncApiKeyAuthentication
from gql.transport.appsync_websockets import AppSyncWebsocketsTransport
from gql.transport.exceptions import TransportQueryError

from conftest import API_KEY

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "functions-app"


class EchoEndpoint(BaseHTTPRequestHandler):
    """A function behind HTTP: receives AppSync's event as JSON, answers the result."""

    def do_POST(self):
        event = json.loads(self.rfile.read(int(self.headers["content-length"])))
        if self.path == "/later":  # what the Event-invoked handler reports
            self.server.later.append(event)
            self.server.later_arrived.set()
            self.send_response(204)
            self.end_headers()
            return
        if event["typeName"] == "Note":
            result = "http:" + event["source"]["text"]
        else:
            result = {"by": "http", "text": event["arguments"]["text"] * 2,
                      "identity": json.dumps(event["identity"]), "env": json.dumps({"prev": event["prev"]})}
        body = json.dumps(result).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def app(tmp_path, server_factory):
    """The fixture app copied (its function's `.env` gets a path of this test's), served with
    the HTTP function on a local port."""
    root = tmp_path / "app"
    shutil.copytree(FIXTURE, root)
    endpoint = ThreadingHTTPServer(("127.0.0.1", 0), EchoEndpoint)
    endpoint.later, endpoint.later_arrived = [], threading.Event()
    threading.Thread(target=endpoint.serve_forever, daemon=True).start()
    with open(root / "amplify/backend/function/nodeecho/.env", "a") as env:
        env.write(f"LATER_URL=http://127.0.0.1:{endpoint.server_address[1]}/later\n")
    server = server_factory(schema_args=[
        "--project", str(root / "amplify/backend/api/notesapi"),
        "--function", f"httpecho=http://127.0.0.1:{endpoint.server_address[1]}/"])
    yield server, endpoint
    endpoint.shutdown()


def http(server, headers=None):
    auth = AppSyncApiKeyAuthentication(host=server.host, api_key=API_KEY)
    return Client(transport=AIOHTTPTransport(url=server.url, auth=auth, headers=headers), fetch_schema_from_transport=False)


def run(server, query, variables=None, headers=None):
    async def go():
        async with http(server, headers) as session:
            return await session.execute(GraphQLRequest(query, variable_values=variables))
    return asyncio.run(go())


def failing(server, query):
    with pytest.raises(TransportQueryError) as failure:
        run(server, query)
    return failure.value.data, {tuple(e["path"]): e for e in failure.value.errors}


def test_project_handlers_and_http_functions_answer_queries_mutations_and_model_fields(app):
    server, _ = app
    query = """query($t: String!) {
      nodeEcho(text: $t) { by text identity env }
      pyEcho(text: $t) { by text env }
      httpEcho(text: $t) { by text }
    }"""
    data = run(server, query, {"t": "hi"}, headers={"x-test-header": "from the client"})
    assert data["nodeEcho"]["by"] == "node" and data["nodeEcho"]["text"] == "HI"
    assert json.loads(data["nodeEcho"]["identity"]) is None  # an API key caller
    env = json.loads(data["nodeEcho"]["env"])
    assert env["functionName"] == "nodeecho-dev"  # ${env} from amplify/.config/local-env-info.json
    assert env["contextName"] == "nodeecho-dev"
    assert env["amplifyEnv"] == "dev"
    assert env["fromTemplate"] == "hello from the template"
    assert env["fromDotEnv"] == "s3cret"
    assert env["home"] == "no credentials"
    assert env["headers"] == "from the client"
    assert env["prev"] == {"result": {}}
    assert data["pyEcho"] == {"by": "python", "text": "hi", "env": json.dumps(
        {"functionName": "pyecho-dev", "contextName": "pyecho-dev"})}
    assert data["httpEcho"] == {"by": "http", "text": "hihi"}

    mutation = """mutation($t: String!) {
      nodeRecord(text: $t) { by text }
      pyRecord(text: $t) { by text }
      httpRecord(text: $t) { by text }
    }"""
    assert run(server, mutation, {"t": "ab"}) == {
        "nodeRecord": {"by": "node", "text": "AB"},
        "pyRecord": {"by": "python", "text": "ab"},
        "httpRecord": {"by": "http", "text": "abab"},
    }

    created = run(server, 'mutation { createNote(input: {id: "n1", text: "milk"}) { id nodeShout } }')
    assert created == {"createNote": {"id": "n1", "nodeShout": "node:MILK"}}
    note = run(server, '{ getNote(id: "n1") { text nodeShout pyShout httpShout } }')["getNote"]
    assert note == {"text": "milk", "nodeShout": "node:MILK", "pyShout": "py:klim", "httpShout": "http:milk"}
    listed = run(server, "{ listNotes { items { id nodeShout } } }")["listNotes"]["items"]
    assert listed == [{"id": "n1", "nodeShout": "node:MILK"}]


def test_handlers_stay_warm_between_calls(app):
    server, _ = app
    calls = [json.loads(run(server, '{ nodeEcho(text: "x") { env } }')["nodeEcho"]["env"])["calls"] for _ in range(3)]
    assert calls == [calls[0], calls[0] + 1, calls[0] + 2]


def test_a_pipeline_hands_the_node_result_to_the_python_function(app):
    server, _ = app
    data = run(server, '{ chained(text: "a") { by text } }')
    assert data == {"chained": {"by": "python", "text": "A+py"}}


def test_an_event_invocation_answers_success_and_the_function_runs(app):
    server, endpoint = app
    assert run(server, 'mutation { later(text: "queued") { success } }') == {"later": {"success": True}}
    assert endpoint.later_arrived.wait(10), "the Event-invoked handler never ran"
    assert endpoint.later == [{"text": "queued"}]


def test_throwing_timing_out_garbage_and_unconfigured_functions_null_their_field_only(app):
    server, _ = app
    data, errors = failing(server, '{ boom slow garbage unconfigured nodeEcho(text: "still") { text } }')
    assert data == {"boom": None, "slow": None, "garbage": None, "unconfigured": None, "nodeEcho": {"text": "STILL"}}
    assert errors[("boom",)]["errorType"] == "Lambda:Unhandled"
    assert errors[("boom",)]["message"] == "Order 42 does not exist"
    assert errors[("slow",)]["errorType"] == "Lambda:Unhandled"
    assert errors[("slow",)]["message"].endswith("Task timed out after 1.00 seconds")
    assert errors[("garbage",)]["errorType"] == "Lambda:Unhandled"
    assert "this is not JSON" in errors[("garbage",)]["message"]
    assert errors[("unconfigured",)]["errorType"] == "Lambda:Unhandled"
    assert "nobody-${env}" in errors[("unconfigured",)]["message"]
    # The timed-out handler's process was replaced: the function answers (and fails) again.
    _, again = failing(server, "{ slow }")
    assert again[("slow",)]["message"].endswith("Task timed out after 1.00 seconds")


def test_a_custom_subscription_receives_a_custom_mutations_result(app):
    server, _ = app

    async def scenario():
        auth = AppSyncApiKeyAuthentication(host=server.host, api_key=API_KEY)
        realtime = Client(transport=AppSyncWebsocketsTransport(url=f"ws://{server.host}/graphql", auth=auth))
        async with realtime as session, http(server) as mutations:
            queue = asyncio.Queue()

            async def consume():
                request = GraphQLRequest('subscription { onSend(room: "r1") { room text __typename } }')
                async for result in session.subscribe(request):
                    await queue.put(result)

            task = asyncio.create_task(consume())
            send = 'mutation($r: String!, $t: String!) { send(room: $r, text: $t) { room text } }'
            for n in range(100):  # gql does not expose start_ack: send until one arrives
                await mutations.execute(GraphQLRequest(send, variable_values={"r": "r1", "t": f"warm-{n}"}))
                try:
                    await asyncio.wait_for(queue.get(), timeout=0.2)
                    break
                except asyncio.TimeoutError:
                    continue
            while not queue.empty():
                queue.get_nowait()
            await mutations.execute(GraphQLRequest(send, variable_values={"r": "r2", "t": "elsewhere"}))
            await mutations.execute(GraphQLRequest(send, variable_values={"r": "r1", "t": "hello"}))
            received = await asyncio.wait_for(queue.get(), 10)
            assert received == {"onSend": {"room": "r1", "text": "hello", "__typename": "Message"}}
            task.cancel()

    asyncio.run(scenario())


def test_serve_lists_functions_nobody_configured(app):
    server, _ = app
    assert any("nobody-${env}" in line and "not configured" in line for line in server.banner)


def test_a_malformed_functions_json_stops_the_start_naming_the_file_and_the_mistake(tmp_path):
    import subprocess

    from conftest import BINARY

    root = tmp_path / "app"
    shutil.copytree(FIXTURE, root)
    api = root / "amplify/backend/api/notesapi"
    (api / "functions.json").write_text('{\n  "functions": {\n    "garbage": {"url": "http://127.0.0.1:1/", "command": ["x"]}\n  }\n}\n')
    started = subprocess.run([str(BINARY), "serve", "--project", str(api), "--in-memory", "--port", "0"],
                             capture_output=True, text=True, timeout=60)
    assert started.returncode != 0
    assert "functions.json line 3, functions.garbage" in started.stderr
    assert "a function is one of url, command or handler" in started.stderr
