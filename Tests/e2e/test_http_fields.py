"""`@http` fields through the real `deltasync serve`: the request AppSync's HTTP data source
sends (path parameters, query string, JSON body, the client's headers and the directive's
own), the answer as the field's value, and a non-2xx status as the field's error."""

import asyncio
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from gql import Client, GraphQLRequest
from gql.transport.aiohttp import AIOHTTPTransport
from gql.transport.appsync_auth import AppSyncApiKeyAuthentication
from gql.transport.exceptions import TransportQueryError

from conftest import API_KEY

SCHEMA = """
type Note @model { id: ID! text: String }
type User { id: ID! name: String verbose: Boolean }
type Query {
  user(id: ID!, verbose: Boolean): User @http(url: "http://127.0.0.1:PORT/users/:id")
  missing(id: ID!): User @http(url: "http://127.0.0.1:PORT/missing/:id")
}
type Mutation {
  addUser(org: String!, id: ID!, name: String!): User
    @http(method: POST, url: "http://127.0.0.1:PORT/orgs/:org/users", headers: [{key: "x-static", value: "from the directive"}])
  removeUser(id: ID!, hard: Boolean): User @http(method: DELETE, url: "http://127.0.0.1:PORT/users/:id")
}
"""


class Service(BaseHTTPRequestHandler):
    """A REST service that records each request and answers from its path."""

    def answer(self, status, body):
        data = json.dumps(body).encode() if not isinstance(body, str) else body.encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def record(self):
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length).decode() if length else None
        parts = urlsplit(self.path)
        self.server.requests.append({
            "method": self.command, "path": parts.path, "query": parse_qs(parts.query),
            "headers": {k.lower(): v for k, v in self.headers.items()}, "body": json.loads(body) if body else None})
        return parts

    def do_GET(self):
        parts = self.record()
        if parts.path.startswith("/missing/"):
            return self.answer(404, "no such user")
        user_id = unquote(parts.path.rsplit("/", 1)[1])
        self.answer(200, {"id": user_id, "name": "Ada", "verbose": parse_qs(parts.query).get("verbose") == ["true"]})

    def do_POST(self):
        self.record()
        body = self.server.requests[-1]["body"]
        self.answer(201, {"id": body["id"], "name": body["name"]})

    def do_DELETE(self):
        parts = self.record()
        self.answer(200, {"id": parts.path.rsplit("/", 1)[1], "name": None})

    def log_message(self, *args):
        pass


@pytest.fixture
def served(tmp_path, server_factory):
    service = ThreadingHTTPServer(("127.0.0.1", 0), Service)
    service.requests = []
    threading.Thread(target=service.serve_forever, daemon=True).start()
    schema = tmp_path / "schema.graphql"
    schema.write_text(SCHEMA.replace("PORT", str(service.server_address[1])))
    yield server_factory(schema_args=["--schema", str(schema)]), service.requests
    service.shutdown()


def run(server, query, variables=None, headers=None):
    async def go():
        auth = AppSyncApiKeyAuthentication(host=server.host, api_key=API_KEY)
        transport = AIOHTTPTransport(url=server.url, auth=auth, headers=headers)
        async with Client(transport=transport, fetch_schema_from_transport=False) as session:
            return await session.execute(GraphQLRequest(query, variable_values=variables))
    return asyncio.run(go())


def test_a_get_field_fills_the_path_and_query_and_copies_the_clients_headers(served):
    server, requests = served
    data = run(server, '{ user(params: {id: "u 1"}, query: {verbose: true}) { id name verbose } }',
               headers={"x-trace": "t-1"})
    assert data == {"user": {"id": "u 1", "name": "Ada", "verbose": True}}
    (request,) = requests
    assert request["method"] == "GET"
    assert request["path"] == "/users/u%201"
    assert request["query"] == {"verbose": ["true"]}
    assert request["headers"]["x-trace"] == "t-1"  # copied from the client, as AppSync does
    assert request["headers"]["x-api-key"] == API_KEY
    assert request["headers"]["accept-encoding"] == "application/json"
    assert request["body"] is None


def test_a_post_field_sends_its_body_and_the_directives_headers(served):
    server, requests = served
    query = """mutation($b: MutationAddUserBodyInput) {
      addUser(params: {org: "acme"}, body: $b) { id name }
    }"""
    data = run(server, query, {"b": {"id": "u2", "name": "Grace"}})
    assert data == {"addUser": {"id": "u2", "name": "Grace"}}
    (request,) = requests
    assert request["method"] == "POST"
    assert request["path"] == "/orgs/acme/users"
    assert request["body"] == {"id": "u2", "name": "Grace"}
    assert request["headers"]["content-type"] == "application/json"
    assert request["headers"]["x-static"] == "from the directive"


def test_a_delete_field_sends_no_query_string(served):
    server, requests = served
    data = run(server, 'mutation { removeUser(params: {id: "u3"}, query: {hard: true}) { id } }')
    assert data == {"removeUser": {"id": "u3"}}
    assert requests[0]["method"] == "DELETE"
    assert requests[0]["query"] == {}


def test_a_non_2xx_answer_is_the_fields_error_with_the_status_as_its_type(served):
    server, _ = served
    with pytest.raises(TransportQueryError) as failure:
        run(server, '{ missing(params: {id: "x"}) { id } user(params: {id: "ok"}) { id } }')
    assert failure.value.data == {"missing": None, "user": {"id": "ok"}}
    (error,) = failure.value.errors
    assert error["path"] == ["missing"]
    assert error["errorType"] == "404"
    assert error["message"] == "no such user"
