"""Python gql's AppSync IAM authentication (AppSyncIAMAuthentication, signed by botocore's
SigV4) against deltasync, with a guest (unauthenticated role) and a signed-in (authenticated
role) access key, over HTTP and the realtime WebSocket."""

import asyncio
import hashlib
import json
import urllib.error
import urllib.request

import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
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
            assert refused.value.errors[0]["errorType"] == "InvalidSignatureException"

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


def post(url, body, headers):
    """POSTs `body` with exactly `headers`; the status and the JSON answer, whatever the status."""
    request = urllib.request.Request(url, data=body.encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_a_captured_signature_does_not_carry_another_body(iam_server):
    """A request signed by botocore, replayed with another body and an unsigned
    x-amz-content-sha256 naming the signed body's hash, is refused: the server hashes the body it
    received."""
    signed_body = json.dumps({"query": LIST})
    request = AWSRequest(method="POST", url=iam_server.url, data=signed_body, headers={"content-type": "application/json"})
    SigV4Auth(MEMBER, "appsync", "us-east-1").add_auth(request)
    headers = dict(request.headers.items())

    replayed = dict(headers, **{"x-amz-content-sha256": hashlib.sha256(signed_body.encode()).hexdigest()})
    other_body = json.dumps({"query": CREATE, "variables": {"i": {"id": "planted"}}})
    status, answer = post(iam_server.url, other_body, replayed)
    assert status == 403
    assert answer["errors"][0]["errorType"] == "InvalidSignatureException"

    status, answer = post(iam_server.url, signed_body, headers)
    assert status == 200
    assert answer["data"]["listPhotos"]["items"] == []
