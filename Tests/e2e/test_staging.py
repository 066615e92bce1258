"""What a staging server needs, against the real binary: https and wss with a `deltasync dev-cert`
certificate (Python gql trusting only the development CA), a graceful SIGTERM, JSON logs."""

import asyncio
import base64
import hashlib
import http.client
import json
import re
import signal
import socket
import ssl
import subprocess
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import aiohttp
import pytest
import websockets
from gql import Client, GraphQLRequest
from gql.transport.aiohttp import AIOHTTPTransport
from gql.transport.appsync_auth import AppSyncApiKeyAuthentication
from gql.transport.appsync_websockets import AppSyncWebsocketsTransport
from gql.transport.exceptions import TransportConnectionFailed

from conftest import API_KEY, BINARY, EXAMPLE_SCHEMA, until_subscribed

CREATE_POST = """mutation($i: CreatePostInput!) { createPost(input: $i) { id title _version } }"""
ON_CREATE = "subscription { onCreatePost { id title } }"


def dev_cert(directory, *names):
    flags = [arg for name in names for arg in ("--name", name)]
    result = subprocess.run([str(BINARY), "dev-cert", "--data-dir", str(directory), *flags],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture
def certs(tmp_path):
    directory = tmp_path / "certs"
    output = dev_cert(directory)
    return directory, output


@pytest.fixture
def tls_server(server_factory, certs):
    directory, _ = certs
    server = server_factory(schema_args=["--schema", str(EXAMPLE_SCHEMA), "--data-dir", str(directory),
                                         "--tls-cert", str(directory / "dev-cert.pem"),
                                         "--tls-key", str(directory / "dev-cert-key.pem")])
    server.https = f"https://{server.host}/graphql"
    server.wss = f"wss://{server.host}/graphql"
    return server


def trusting(ca_file) -> ssl.SSLContext:
    """A context that trusts `ca_file` and nothing else (no system roots)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.load_verify_locations(cafile=str(ca_file))
    return context


def test_dev_cert_writes_the_ca_and_a_certificate_and_says_how_to_trust_it(tmp_path):
    directory = tmp_path / "data"
    first = dev_cert(directory, "staging.local", "10.0.2.2")
    for name in ["dev-ca.pem", "dev-ca-key.pem", "dev-cert.pem", "dev-cert-key.pem"]:
        assert str(directory / name) in first
    assert oct((directory / "dev-ca-key.pem").stat().st_mode & 0o777) == "0o600"
    assert oct((directory / "dev-cert-key.pem").stat().st_mode & 0o777) == "0o600"
    for step in ["xcrun simctl keychain booted add-root-cert", "network_security_config", "add-trusted-cert",
                 "update-ca-certificates", f"--tls-cert {directory / 'dev-cert.pem'}",
                 f"--tls-key {directory / 'dev-cert-key.pem'}", "staging.local", "10.0.2.2"]:
        assert step in first, step
    ca = (directory / "dev-ca.pem").read_bytes()
    second = dev_cert(directory)
    assert "reused" in second
    assert (directory / "dev-ca.pem").read_bytes() == ca

    refused = subprocess.run([str(BINARY), "dev-cert", "--data-dir", str(directory), "--name", "not a name"],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 64
    assert "neither a DNS name" in refused.stderr


def test_gql_queries_over_https_and_subscribes_over_wss_trusting_only_the_dev_ca(tls_server, certs):
    context = trusting(certs[0] / "dev-ca.pem")
    auth = AppSyncApiKeyAuthentication(host=tls_server.host, api_key=API_KEY)

    async def scenario():
        over_https = Client(transport=AIOHTTPTransport(url=tls_server.https, auth=auth, ssl=context),
                      fetch_schema_from_transport=False)
        realtime = Client(transport=AppSyncWebsocketsTransport(url=tls_server.wss, auth=auth, ssl=context))
        async with over_https as mutations, realtime as session:
            queue = asyncio.Queue()

            async def consume():
                async for result in session.subscribe(GraphQLRequest(ON_CREATE)):
                    await queue.put(result)

            task = asyncio.create_task(consume())

            async def create(n, title="warm-up"):
                return await mutations.execute(GraphQLRequest(CREATE_POST, variable_values={
                    "i": {"id": f"p-{n}", "blogID": "b1", "title": title}}))

            await until_subscribed(create, queue)
            created = await create("tls", "Over TLS")
            assert created["createPost"]["_version"] == 1
            assert await asyncio.wait_for(queue.get(), 10) == {"onCreatePost": {"id": "p-tls", "title": "Over TLS"}}
            task.cancel()

    asyncio.run(scenario())


def test_plain_http_and_clients_trusting_another_ca_are_refused(tls_server, tmp_path):
    port = tls_server.port
    # Plain HTTP on the TLS port: the bytes are not a TLS handshake, so no HTTP answer comes back.
    with pytest.raises((urllib.error.URLError, ConnectionError, http.client.HTTPException)):
        urllib.request.urlopen(f"http://{tls_server.host}/health/ready", timeout=30)

    other = tmp_path / "other"
    dev_cert(other)
    for context in (trusting(other / "dev-ca.pem"), ssl.create_default_context()):
        with socket.create_connection(("127.0.0.1", port), timeout=30) as raw:
            with pytest.raises(ssl.SSLCertVerificationError):
                context.wrap_socket(raw, server_hostname="localhost")

    async def gql_with_the_system_roots():
        auth = AppSyncApiKeyAuthentication(host=tls_server.host, api_key=API_KEY)
        async with Client(transport=AIOHTTPTransport(url=tls_server.https, auth=auth),
                          fetch_schema_from_transport=False) as session:
            await session.execute(GraphQLRequest("{ listPosts { items { id } } }"))

    with pytest.raises(TransportConnectionFailed) as failure:
        asyncio.run(gql_with_the_system_roots())
    assert isinstance(failure.value.__cause__, aiohttp.ClientConnectorCertificateError)


def test_a_missing_certificate_file_is_an_error_naming_the_file_and_the_flag(tmp_path, certs):
    missing = tmp_path / "missing.pem"
    result = subprocess.run(
        [str(BINARY), "serve", "--schema", str(EXAMPLE_SCHEMA), "--in-memory", "--port", "0",
         "--tls-cert", str(missing), "--tls-key", str(certs[0] / "dev-cert-key.pem")],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result.stderr
    assert str(missing) in result.stderr and "--tls-cert" in result.stderr
    alone = subprocess.run(
        [str(BINARY), "serve", "--schema", str(EXAMPLE_SCHEMA), "--in-memory", "--port", "0",
         "--tls-cert", str(certs[0] / "dev-cert.pem")], capture_output=True, text=True, timeout=60)
    assert alone.returncode == 64
    assert "--tls-cert and --tls-key go together" in alone.stderr


# MARK: - Graceful shutdown

def realtime_url(server, scheme="ws"):
    header = base64.b64encode(json.dumps({"host": server.host, "x-api-key": API_KEY}).encode()).decode()
    return f"{scheme}://{server.host}/graphql?header={header}&payload=e30="


def test_sigterm_closes_open_realtime_sockets_with_1001_and_exits_0(server_factory, tmp_path):
    server = server_factory()

    async def scenario():
        sockets = [await websockets.connect(realtime_url(server), subprotocols=["graphql-ws"]) for _ in range(3)]
        for ws in sockets:
            await ws.send(json.dumps({"type": "connection_init"}))
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "connection_ack"
        server.process.send_signal(signal.SIGTERM)
        codes = []
        for ws in sockets:
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    await asyncio.wait_for(ws.recv(), 30)
            codes.append(closed.value.rcvd.code if closed.value.rcvd else None)
        return codes

    assert asyncio.run(scenario()) == [1001, 1001, 1001]
    assert server.process.wait(timeout=30) == 0


class SlowAuthorizer:
    """A Lambda authorizer endpoint that holds each call until released: a request in flight."""

    def __init__(self):
        self.called, self.release = threading.Event(), threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers["content-length"]))
                outer.called.set()
                outer.release.wait(60)
                body = json.dumps({"isAuthorized": True}).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.http.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.http.server_port}/"

    def close(self):
        self.release.set()
        self.http.shutdown()


def test_sigterm_stops_accepting_and_finishes_requests_in_flight(server_factory):
    authorizer = SlowAuthorizer()
    try:
        server = server_factory(schema_args=["--schema", str(EXAMPLE_SCHEMA), "--auth-mode", "lambda",
                                             "--lambda-authorizer-url", authorizer.url])
        answer = {}

        def in_flight():
            request = urllib.request.Request(
                server.url, method="POST", data=json.dumps({"query": "{ listPosts { items { id } } }"}).encode(),
                headers={"content-type": "application/json", "authorization": "let-me-in"})
            with urllib.request.urlopen(request, timeout=60) as response:
                answer["status"], answer["body"] = response.status, json.load(response)

        request = threading.Thread(target=in_flight)
        request.start()
        assert authorizer.called.wait(30), "the request never reached the authorizer"
        server.process.send_signal(signal.SIGTERM)

        # The port closes while the request is still held by the authorizer.
        refused = False
        for _ in range(3000):
            try:
                socket.create_connection(("127.0.0.1", server.port), timeout=5).close()
            except ConnectionRefusedError:
                refused = True
                break
            assert server.process.poll() is None
            threading.Event().wait(0.01)
        assert refused, "the port still accepts connections after SIGTERM"
        assert server.process.poll() is None and request.is_alive()

        authorizer.release.set()
        request.join(60)
        assert answer == {"status": 200, "body": {"data": {"listPosts": {"items": []}}}}
        assert server.process.wait(timeout=30) == 0
    finally:
        authorizer.close()


# MARK: - JSON logs

TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


def test_json_log_lines_parse_as_json(tmp_path):
    process = subprocess.Popen(
        [str(BINARY), "serve", "--schema", str(EXAMPLE_SCHEMA), "--in-memory", "--port", "0", "--api-key", API_KEY,
         "--data-dir", str(tmp_path), "--log-format", "json", "--log-level", "debug"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        watchdog = threading.Timer(60, process.kill)
        watchdog.start()
        url = None
        # With JSON logs, the ready banner is one JSON line on stdout too.
        for line in process.stdout:
            ready = json.loads(line)
            if ready.get("message") == "ready":
                url = ready["graphqlUrl"]
                # Keys as fingerprints only: log collectors keep what they read.
                assert "apiKey" not in ready and "adminKey" not in ready, ready
                assert ready["apiKeyFingerprint"] == "sha256:" + hashlib.sha256(API_KEY.encode()).hexdigest()[:12], ready
                assert re.fullmatch(r"sha256:[0-9a-f]{12}", ready["adminKeyFingerprint"]), ready
                assert ready["realtimeUrl"] == url.replace("http://", "ws://"), ready
                assert ready["authModes"] == ["API_KEY"] and "Post" in ready["models"], ready
                break
        watchdog.cancel()
        assert url, "deltasync exited before serving"
        request = urllib.request.Request(url, method="POST", data=b'{"query":"{ listPosts { items { id } } }"}',
                                         headers={"content-type": "application/json", "x-api-key": API_KEY})
        assert urllib.request.urlopen(request, timeout=30).status == 200
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0
    lines = [line for line in stderr.splitlines() if line]
    assert len(lines) >= 3, stderr
    records = [json.loads(line) for line in lines]
    for record in records:
        assert list(record)[:4] == ["timestamp", "level", "label", "message"], record
        assert TIMESTAMP.match(record["timestamp"]), record["timestamp"]
        assert record["level"] in {"trace", "debug", "info", "notice", "warning", "error", "critical"}
        assert all(isinstance(value, str) for value in record.values()), record
    assert any(record["message"].startswith("Server started") for record in records)
    # Metadata arrives as fields of their own (service lifecycle's debug lines carry some).
    assert any(set(record) - {"timestamp", "level", "label", "message"} for record in records)
