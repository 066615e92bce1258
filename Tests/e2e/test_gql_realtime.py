"""Python gql's AppSync realtime transport (AppSyncWebsocketsTransport) against deltasync."""

import asyncio

import pytest
from gql import Client, GraphQLRequest
from gql.transport.aiohttp import AIOHTTPTransport
from gql.transport.appsync_auth import AppSyncApiKeyAuthentication
from gql.transport.appsync_websockets import AppSyncWebsocketsTransport
from gql.transport.exceptions import TransportQueryError, TransportServerError

from conftest import API_KEY

CREATE_POST = """mutation($i: CreatePostInput!) {
  createPost(input: $i) { id title rating _version __typename }
}"""
ON_CREATE = "subscription { onCreatePost { __typename id title rating _version } }"
ON_CREATE_FILTERED = """subscription($f: ModelSubscriptionPostFilterInput) {
  onCreatePost(filter: $f) { id rating }
}"""


def realtime(server, api_key=API_KEY):
    auth = AppSyncApiKeyAuthentication(host=server.host, api_key=api_key)
    return Client(transport=AppSyncWebsocketsTransport(url=f"ws://{server.host}/graphql", auth=auth))


def http(server):
    auth = AppSyncApiKeyAuthentication(host=server.host, api_key=API_KEY)
    return Client(transport=AIOHTTPTransport(url=server.url, auth=auth), fetch_schema_from_transport=False)


async def create(mutations, id, title, rating):
    await mutations.execute(GraphQLRequest(CREATE_POST, variable_values={
        "i": {"id": id, "blogID": "b1", "title": title, "rating": rating}}))


async def consume(session, request, queue):
    async for result in session.subscribe(request):
        await queue.put(result)


async def until_subscribed(mutations, queues):
    """gql does not expose start_ack: create warm-up posts until every subscription got one."""
    for n in range(100):
        await create(mutations, f"warm-{n}", "warm-up", 5)
        try:
            for queue in queues:
                await asyncio.wait_for(queue.get(), timeout=0.2)
            for queue in queues:
                while not queue.empty():
                    queue.get_nowait()
            return
        except asyncio.TimeoutError:
            continue
    raise AssertionError("subscriptions never received an event")


def test_subscribe_filter_and_receive_over_websocket(server):
    async def scenario():
        async with realtime(server) as session, http(server) as mutations:
            everything, rated = asyncio.Queue(), asyncio.Queue()
            tasks = [
                asyncio.create_task(consume(session, GraphQLRequest(ON_CREATE), everything)),
                asyncio.create_task(consume(
                    session, GraphQLRequest(ON_CREATE_FILTERED, variable_values={"f": {"rating": {"gt": 3}}}), rated)),
            ]
            await until_subscribed(mutations, [everything, rated])

            for rating in range(1, 6):
                await create(mutations, f"p{rating}", f"Post {rating}", rating)
            received = [await asyncio.wait_for(everything.get(), 10) for _ in range(5)]
            assert [r["onCreatePost"]["id"] for r in received] == ["p1", "p2", "p3", "p4", "p5"]
            assert received[0]["onCreatePost"] == {
                "__typename": "Post", "id": "p1", "title": "Post 1", "rating": 1, "_version": 1}
            filtered = [await asyncio.wait_for(rated.get(), 10) for _ in range(2)]
            assert filtered == [{"onCreatePost": {"id": "p4", "rating": 4}},
                                {"onCreatePost": {"id": "p5", "rating": 5}}]

            # Leaving the generator sends `stop`; the other subscription keeps receiving.
            tasks[0].cancel()
            await create(mutations, "p9", "After stop", 9)
            assert await asyncio.wait_for(rated.get(), 10) == {"onCreatePost": {"id": "p9", "rating": 9}}
            tasks[1].cancel()

    asyncio.run(scenario())


def test_invalid_subscription_fails_only_that_subscription(server):
    async def scenario():
        async with realtime(server) as session:
            with pytest.raises(TransportQueryError) as failure:
                async for _ in session.subscribe(GraphQLRequest(
                        "subscription { onCreatePost(filter: {id: {in: [\"1\",\"2\",\"3\",\"4\",\"5\",\"6\"]}}) { id } }")):
                    pass
            assert "FilterValidationError" in str(failure.value)

    asyncio.run(scenario())


def test_wrong_api_key_is_refused(server):
    async def scenario():
        with pytest.raises(TransportServerError) as failure:
            async with realtime(server, api_key="da2-wrong"):
                pass
        assert "UnauthorizedException" in str(failure.value)

    asyncio.run(scenario())


def test_the_default_port_answers_wss_as_amplify_js_v6_opens_it(server_factory, tmp_path):
    """Amplify JS v6 turns an http:// endpoint into wss://host/graphql/realtime. `deltasync serve`
    answers TLS on its one port with a development certificate made on first start, signed by the
    authority in the data folder that clients trust (here through an SSL context)."""
    import ssl

    from conftest import EXAMPLE_SCHEMA

    server = server_factory(schema_args=["--schema", str(EXAMPLE_SCHEMA), "--data-dir", str(tmp_path)])
    assert any("https:// on the same port" in line for line in server.banner)
    trusting = ssl.create_default_context(cafile=str(tmp_path / "dev-ca.pem"))
    url = server.url.replace("http://", "wss://") + "/realtime"
    auth = AppSyncApiKeyAuthentication(host=server.host, api_key=API_KEY)
    secure = Client(transport=AppSyncWebsocketsTransport(url=url, auth=auth, ssl=trusting))

    async def scenario():
        async with secure as session, http(server) as mutations:
            queue = asyncio.Queue()
            task = asyncio.create_task(consume(session, GraphQLRequest(ON_CREATE), queue))
            await until_subscribed(mutations, [queue])
            await create(mutations, "tls1", "Over wss", 4)
            received = await asyncio.wait_for(queue.get(), 10)
            assert received["onCreatePost"]["id"] == "tls1"
            task.cancel()

    asyncio.run(scenario())

    # A client that trusts only the system's roots is refused: the certificate is the local authority's.
    refused = Client(transport=AppSyncWebsocketsTransport(url=url, auth=auth, ssl=ssl.create_default_context()))

    async def untrusted():
        with pytest.raises(Exception) as failure:
            async with refused:
                pass
        assert isinstance(failure.value.__cause__, ssl.SSLCertVerificationError), repr(failure.value)

    asyncio.run(untrusted())
