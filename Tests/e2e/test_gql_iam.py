"""Python gql's AppSync IAM authentication (AppSyncIAMAuthentication, signed by botocore's
SigV4) against deltasync, with a guest (unauthenticated role) and a signed-in (authenticated
role) access key, over HTTP and the realtime WebSocket."""

import asyncio

import pytest
from botocore.credentials import Credentials
from gql import Client, GraphQLRequest
from gql.transport.aiohttp import AIOHTTPTransport
from gql.transport.appsync_auth import AppSyncIAMAuthentication
from gql.transport.appsync_websockets import AppSyncWebsocketsTransport
from gql.transport.exceptions import TransportQueryError

from conftest import until_subscribed

SCHEMA = """
type Photo @model @auth(rules: [
  { allow: public, provider: iam, operations: [read] },
  { allow: private, provider: iam }
]) {
  id: ID!
  caption: String
}
"""
GUEST = Credentials("AKIDGUEST", "guest-secret")
MEMBER = Credentials("AKIDMEMBER", "member-secret")
CREATE = "mutation($i: CreatePhotoInput!) { createPhoto(input: $i) { id caption } }"
LIST = "{ listPhotos { items { id caption } } }"


@pytest.fixture
def iam_server(server_factory, tmp_path):
    schema = tmp_path / "schema.graphql"
    schema.write_text(SCHEMA)
    return server_factory(schema_args=[
        "--schema", str(schema), "--auth-mode", "iam", "--additional-auth-mode", "apiKey",
        "--iam-credentials", "AKIDGUEST:guest-secret:unauthenticated",
        "--iam-credentials", "AKIDMEMBER:member-secret:authenticated"])


def auth(server, credentials):
    return AppSyncIAMAuthentication(host=server.host, credentials=credentials, region_name="us-east-1")


def http(server, credentials):
    return Client(transport=AIOHTTPTransport(url=server.url, auth=auth(server, credentials)),
                  fetch_schema_from_transport=False)


def test_roles_decide_over_http(iam_server):
    async def scenario():
        async with http(iam_server, MEMBER) as session:
            created = await session.execute(GraphQLRequest(CREATE, variable_values={"i": {"id": "p1", "caption": "sea"}}))
            assert created["createPhoto"] == {"id": "p1", "caption": "sea"}
        async with http(iam_server, GUEST) as session:
            listed = await session.execute(GraphQLRequest(LIST))
            assert listed["listPhotos"]["items"] == [{"id": "p1", "caption": "sea"}]
            with pytest.raises(TransportQueryError) as refused:
                await session.execute(GraphQLRequest(CREATE, variable_values={"i": {"id": "p2"}}))
            assert refused.value.errors[0]["errorType"] == "Unauthorized"
            assert refused.value.errors[0]["message"] == "Not Authorized to access createPhoto on type Mutation"
        async with http(iam_server, Credentials("AKIDMEMBER", "wrong-secret")) as session:
            with pytest.raises(TransportQueryError) as refused:
                await session.execute(GraphQLRequest(LIST))
            assert refused.value.errors[0]["errorType"] == "UnauthorizedException"

    asyncio.run(scenario())


def test_signed_subscriptions_receive_events(iam_server):
    async def scenario():
        queue = asyncio.Queue()
        transport = AppSyncWebsocketsTransport(url=f"ws://{iam_server.host}/graphql", auth=auth(iam_server, GUEST))

        async def consume(session):
            async for result in session.subscribe(GraphQLRequest("subscription { onCreatePhoto { id caption } }")):
                await queue.put(result["onCreatePhoto"])

        async with Client(transport=transport) as subscriber, http(iam_server, MEMBER) as member:
            task = asyncio.create_task(consume(subscriber))
            await until_subscribed(lambda n: member.execute(GraphQLRequest(CREATE, variable_values={"i": {"id": f"warm-{n}"}})), queue)
            await member.execute(GraphQLRequest(CREATE, variable_values={"i": {"id": "live", "caption": "now"}}))
            assert await asyncio.wait_for(queue.get(), timeout=10) == {"id": "live", "caption": "now"}
            task.cancel()

    asyncio.run(scenario())
