"""Python gql's AppSync transport (a real third-party AppSync client) against deltasync."""

import subprocess

import graphql
import pytest
from gql import Client, GraphQLRequest
from gql.transport.aiohttp import AIOHTTPTransport
from gql.transport.appsync_auth import AppSyncApiKeyAuthentication
from gql.transport.exceptions import TransportQueryError

from conftest import API_KEY, BINARY, EXAMPLE_PROJECT, EXAMPLE_SCHEMA


def client_for(server, api_key=API_KEY):
    auth = AppSyncApiKeyAuthentication(host=server.host, api_key=api_key)
    return Client(transport=AIOHTTPTransport(url=server.url, auth=auth), fetch_schema_from_transport=False)


def run(client, query, **variables):
    return client.execute(GraphQLRequest(query, variable_values=variables or None))


CREATE_BLOG = "mutation($i: CreateBlogInput!) { createBlog(input: $i) { id name _version } }"
CREATE_POST = """mutation($i: CreatePostInput!) {
  createPost(input: $i) { id title status rating _version _lastChangedAt __typename }
}"""
UPDATE_POST = "mutation($i: UpdatePostInput!) { updatePost(input: $i) { id title _version } }"


def test_printed_schema_builds_with_graphql_core():
    sdl = subprocess.run([str(BINARY), "schema", "print", "--schema", str(EXAMPLE_SCHEMA)],
                         check=True, capture_output=True, text=True).stdout
    schema = graphql.build_schema(sdl)
    query = schema.query_type.fields
    assert "syncPosts" in query and "postsByBlog" in query
    assert [a for a in query["syncPosts"].args] == ["filter", "limit", "nextToken", "lastSync"]
    post = schema.type_map["Post"].fields
    assert str(post["_version"].type) == "Int!"
    assert str(post["_lastChangedAt"].type) == "AWSTimestamp!"
    assert "_version" in schema.type_map["UpdatePostInput"].fields


def test_create_query_update_with_gql(server):
    client = client_for(server)
    blog = run(client, CREATE_BLOG, i={"name": "Field notes"})["createBlog"]
    assert blog["_version"] == 1
    for n in range(1, 6):
        post = run(client, CREATE_POST, i={"blogID": blog["id"], "title": f"Post {n}", "rating": n,
                                           "publishedAt": f"2024-05-0{n}T08:00:00.000Z"})["createPost"]
        assert post["__typename"] == "Post" and post["status"] == "DRAFT"
        assert post["_lastChangedAt"] > 1_600_000_000_000

    listed = run(client, "query($f: ModelPostFilterInput) { listPosts(filter: $f) { items { title } } }",
                 f={"rating": {"ge": 4}})
    assert sorted(p["title"] for p in listed["listPosts"]["items"]) == ["Post 4", "Post 5"]

    by_blog = run(client, """query($b: ID!) { postsByBlog(blogID: $b, sortDirection: DESC, limit: 2) {
        items { title } nextToken } }""", b=blog["id"])["postsByBlog"]
    assert [p["title"] for p in by_blog["items"]] == ["Post 5", "Post 4"]
    assert by_blog["nextToken"]

    nested = run(client, "query($id: ID!) { getBlog(id: $id) { posts { items { id } } } }", id=blog["id"])
    assert len(nested["getBlog"]["posts"]["items"]) == 5

    target = run(client, "{ listPosts(limit: 1) { items { id _version } } }")["listPosts"]["items"][0]
    updated = run(client, UPDATE_POST, i={"id": target["id"], "title": "Edited", "_version": 1})["updatePost"]
    assert updated["_version"] == 2 and updated["title"] == "Edited"


def test_conflict_handlers_from_transform_conf_reach_gql(server_factory):
    # Examples/blog/transform.conf.json: Automerge for the project, optimistic for Reaction.
    client = client_for(server_factory(schema_args=["--project", str(EXAMPLE_PROJECT)]))

    post = run(client, CREATE_POST, i={"blogID": "b", "title": "One"})["createPost"]
    run(client, UPDATE_POST, i={"id": post["id"], "title": "Two", "_version": 1})
    merged = run(client, UPDATE_POST, i={"id": post["id"], "title": "Stale", "_version": 1})["updatePost"]
    assert merged == {"id": post["id"], "title": "Two", "_version": 3}, "Automerge keeps the server's scalar"

    update_reaction = """mutation($i: UpdateReactionInput!) {
      updateReaction(input: $i) { postID userID emoji _version __typename } }"""
    run(client, "mutation { createReaction(input: {postID: \"p\", userID: \"u\", emoji: \"a\"}) { _version } }")
    run(client, update_reaction, i={"postID": "p", "userID": "u", "emoji": "b", "_version": 1})
    with pytest.raises(TransportQueryError) as failure:
        run(client, update_reaction, i={"postID": "p", "userID": "u", "emoji": "stale", "_version": 1})
    error = failure.value.errors[0]
    assert error["errorType"] == "ConflictUnhandled"
    assert error["data"]["emoji"] == "b" and error["data"]["_version"] == 2
    assert error["data"]["__typename"] == "Reaction"
    assert error["path"] == ["updateReaction"]

    with pytest.raises(TransportQueryError) as duplicate:
        run(client, CREATE_POST, i={"id": post["id"], "blogID": "b", "title": "Dup"})
    assert duplicate.value.errors[0]["errorType"] == "ConditionalCheckFailedException"


def test_delta_sync_with_gql(server):
    client = client_for(server)
    sync = """query($last: AWSTimestamp, $t: String) { syncPosts(lastSync: $last, nextToken: $t, limit: 2) {
        items { id title _version _deleted } nextToken startedAt } }"""
    for n in range(3):
        run(client, CREATE_POST, i={"id": f"p{n}", "blogID": "b", "title": f"t{n}"})
    base, token, started = [], None, None
    while True:
        page = run(client, sync, last=0, t=token)["syncPosts"]
        base += page["items"]
        started = page["startedAt"]
        token = page["nextToken"]
        if not token:
            break
    assert sorted(p["id"] for p in base) == ["p0", "p1", "p2"]

    run(client, UPDATE_POST, i={"id": "p1", "title": "changed", "_version": 1})
    run(client, "mutation { deletePost(input: {id: \"p2\", _version: 1}) { id } }")
    delta = run(client, sync, last=started)["syncPosts"]
    assert [(p["id"], p["_deleted"]) for p in delta["items"]] == [("p1", None), ("p2", True)]
    assert delta["startedAt"] > started


def test_wrong_api_key_is_refused(server):
    # gql reads the 401's JSON body and reports its errors, as it does against AppSync.
    with pytest.raises(TransportQueryError) as failure:
        run(client_for(server, api_key="da2-wrong"), "{ listPosts { items { id } } }")
    assert failure.value.errors[0]["errorType"] == "UnauthorizedException"


def test_answered_mutation_survives_kill_9(server_factory, tmp_path):
    db = tmp_path / "durable.sqlite"
    first = server_factory(db=db)
    created = run(client_for(first), CREATE_POST, i={"blogID": "b", "title": "Durable"})["createPost"]
    first.kill9()

    second = server_factory(db=db)
    got = run(client_for(second), "query($id: ID!) { getPost(id: $id) { title _version } }", id=created["id"])
    assert got["getPost"] == {"title": "Durable", "_version": 1}
