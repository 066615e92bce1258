"""Python gql's AppSync JWT authentication (AppSyncJWTAuthentication) against deltasync with an
owner-scoped schema: development tokens from `deltasync token`, over HTTP and the realtime
WebSocket, next to an API key."""

import asyncio
import subprocess

import pytest
from gql import Client, GraphQLRequest
from gql.transport.aiohttp import AIOHTTPTransport
from gql.transport.appsync_auth import AppSyncApiKeyAuthentication, AppSyncJWTAuthentication
from gql.transport.appsync_websockets import AppSyncWebsocketsTransport
from gql.transport.exceptions import TransportQueryError

from conftest import API_KEY, BINARY, until_subscribed

SCHEMA = """
type Todo @model @auth(rules: [
  { allow: owner },
  { allow: groups, groups: ["Admin"] },
  { allow: public, provider: apiKey, operations: [read] }
]) {
  id: ID!
  content: String
}
"""
CREATE = "mutation($i: CreateTodoInput!) { createTodo(input: $i) { id owner _version } }"
LIST = "{ listTodos { items { id owner } } }"
GET = "query($id: ID!) { getTodo(id: $id) { id owner } }"
ON_CREATE = "subscription { onCreateTodo { id owner } }"


@pytest.fixture
def auth_server(server_factory, tmp_path):
    schema = tmp_path / "schema.graphql"
    schema.write_text(SCHEMA)
    data = tmp_path / "data"
    server = server_factory(schema_args=[
        "--schema", str(schema), "--auth-mode", "userPools", "--additional-auth-mode", "apiKey",
        "--data-dir", str(data)])
    server.data = data
    return server


def token(server, username, *extra):
    return subprocess.run(
        [str(BINARY), "token", "--username", username, "--data-dir", str(server.data), *extra],
        check=True, capture_output=True, text=True).stdout.strip()


def http(server, jwt=None):
    auth = AppSyncJWTAuthentication(host=server.host, jwt=jwt) if jwt else \
        AppSyncApiKeyAuthentication(host=server.host, api_key=API_KEY)
    return Client(transport=AIOHTTPTransport(url=server.url, auth=auth), fetch_schema_from_transport=False)


def realtime(server, jwt):
    auth = AppSyncJWTAuthentication(host=server.host, jwt=jwt)
    return Client(transport=AppSyncWebsocketsTransport(url=f"ws://{server.host}/graphql", auth=auth))


def test_owners_see_their_items_and_admins_and_api_keys_see_all(auth_server):
    alice, bob = token(auth_server, "alice"), token(auth_server, "bob")
    carol = token(auth_server, "carol", "--groups", "Admin")

    async def scenario():
        async with http(auth_server, alice) as session:
            created = await session.execute(GraphQLRequest(CREATE, variable_values={"i": {"id": "a1", "content": "x"}}))
            assert created["createTodo"]["owner"] == "alice"
        async with http(auth_server, bob) as session:
            await session.execute(GraphQLRequest(CREATE, variable_values={"i": {"id": "b1", "content": "y"}}))
            listed = await session.execute(GraphQLRequest(LIST))
            assert [item["id"] for item in listed["listTodos"]["items"]] == ["b1"]
            with pytest.raises(TransportQueryError) as refused:
                await session.execute(GraphQLRequest(GET, variable_values={"id": "a1"}))
            assert refused.value.errors[0]["errorType"] == "Unauthorized"
            assert refused.value.errors[0]["message"] == "Not Authorized to access getTodo on type Query"
        for jwt in (carol, None):
            async with http(auth_server, jwt) as session:
                listed = await session.execute(GraphQLRequest(LIST))
                assert sorted(item["id"] for item in listed["listTodos"]["items"]) == ["a1", "b1"]

    asyncio.run(scenario())


def test_forged_expired_and_malformed_tokens_are_refused_as_appsync_refuses_them(auth_server, tmp_path):
    forged = subprocess.run(
        [str(BINARY), "token", "--username", "alice", "--data-dir", str(tmp_path / "elsewhere")],
        check=True, capture_output=True, text=True).stdout.strip()

    expired = token(auth_server, "alice", "--claims", '{"exp": 1000000000}')

    async def scenario():
        for jwt, message in ((forged, "Valid authorization header not provided."),
                             (expired, "Token has expired."),
                             ("not-a-jwt", "Unable to parse JWT token.")):
            async with http(auth_server, jwt) as session:
                with pytest.raises(TransportQueryError) as refused:
                    await session.execute(GraphQLRequest(LIST))
                assert refused.value.errors[0] == {"errorType": "UnauthorizedException", "message": message}

    asyncio.run(scenario())


def test_subscriptions_deliver_only_the_owners_events(auth_server):
    alice, bob = token(auth_server, "alice"), token(auth_server, "bob")

    async def scenario():
        queue = asyncio.Queue()

        async def consume(session):
            async for result in session.subscribe(GraphQLRequest(ON_CREATE)):
                await queue.put(result["onCreateTodo"])

        async with realtime(auth_server, alice) as subscriber, http(auth_server, alice) as as_alice, \
                http(auth_server, bob) as as_bob:
            task = asyncio.create_task(consume(subscriber))
            await until_subscribed(lambda n: as_alice.execute(GraphQLRequest(CREATE, variable_values={"i": {"id": f"warm-{n}"}})), queue)
            await as_bob.execute(GraphQLRequest(CREATE, variable_values={"i": {"id": "bobs"}}))
            await as_alice.execute(GraphQLRequest(CREATE, variable_values={"i": {"id": "alices"}}))
            event = await asyncio.wait_for(queue.get(), timeout=10)
            assert event == {"id": "alices", "owner": "alice"}
            task.cancel()

    asyncio.run(scenario())
