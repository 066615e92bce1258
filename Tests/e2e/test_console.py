"""The browser console at `/`: a real headless Chromium (Debian's, through chromedriver) drives
the page against `deltasync serve --admin-key`, as a developer would.

Each test saves screenshots under .build/artifacts/console/. Nothing waits a fixed time: every
wait is WebDriverWait on a condition of the page.
"""
import base64
import json
import re
import subprocess
import time
import urllib.request
from datetime import datetime, timezone
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from websockets.sync.client import connect

from conftest import API_KEY, BINARY, EXAMPLE_SCHEMA, ROOT

ADMIN_KEY = "console-e2e-admin-key"
ARTIFACTS = ROOT / ".build" / "artifacts" / "console"
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
WAIT_SECONDS = 20


@pytest.fixture
def console_server(server_factory):
    return server_factory(schema_args=["--schema", str(EXAMPLE_SCHEMA), "--admin-key", ADMIN_KEY])


@pytest.fixture
def browser(tmp_path):
    for path, package in [(CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")]:
        if not path.exists():
            pytest.fail(f"{path} is missing: install the Debian package {package} (bash scripts/bootstrap.sh does)")
    options = Options()
    options.binary_location = str(CHROMIUM)
    # Root in a container has no user namespace for Chromium's sandbox.
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000",
                 "--disable-dev-shm-usage", f"--user-data-dir={tmp_path / 'chromium'}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    yield driver
    driver.quit()


class Console:
    """The page, driven by its ids and data-testids."""

    def __init__(self, driver, server, name):
        self.driver = driver
        self.server = server
        self.name = name
        self.base = f"http://127.0.0.1:{server.port}"

    # Waiting and looking

    def until(self, condition, message, timeout=WAIT_SECONDS):
        """Waits for `condition()` to be truthy (a stale element counts as not yet) and returns it."""
        def check(_):
            try:
                return condition()
            except StaleElementReferenceException:
                return False
        return WebDriverWait(self.driver, timeout).until(check, message)

    def find(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def find_all(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def visible(self, selector):
        found = self.find_all(selector)
        return found[0] if found and found[0].is_displayed() else None

    def shot(self, step):
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.driver.save_screenshot(str(ARTIFACTS / f"{self.name}-{step}.png"))

    def click(self, selector):
        """Clicks an element once it is shown; one the page re-rendered meanwhile is found again."""
        def attempt():
            element = self.visible(selector)
            if element is None:
                return False
            element.click()
            return True
        self.until(attempt, f"{selector} was never shown to click")

    def type_into(self, selector, text):
        field = self.find(selector)
        field.clear()
        field.send_keys(text)

    # Pages and tabs

    def open(self, fragment=f"#apiKey={API_KEY}&adminKey={ADMIN_KEY}", path="/"):
        self.driver.get(self.base + path + fragment)
        self.until(lambda: self.find("body").get_attribute("data-ready") == "true", "the console never started")

    def explorer(self):
        self.find("#tab-explorer").click()
        self.until(lambda: self.visible("#gql-run"), "the explorer is not shown")

    def inspector(self, panel="items"):
        self.find("#tab-inspector").click()
        self.until(lambda: self.visible("#model-list"), "the inspector is not shown")
        self.find(f"#subtab-{panel}").click()
        self.until(lambda: self.visible(f"#panel-{panel}"), f"the {panel} panel is not shown")

    # The explorer

    def run(self, document, variables=None):
        """Runs an operation through the explorer's editor and Run button; returns the shown result."""
        self.type_into("#gql-query", document)
        self.type_into("#gql-variables", json.dumps(variables or {}))
        before = int(self.find("#gql-result").get_attribute("data-run"))
        self.find("#gql-run").click()
        self.until(lambda: int(self.find("#gql-result").get_attribute("data-run")) > before, "the result never showed")
        return json.loads(self.find("#gql-result").text)

    # The inspector

    def rows(self, testid):
        return self.find_all(f'tr[data-testid="{testid}"]')

    def rows_data(self, testid):
        """Every row's cells at once, as {field: shown text, "value:" + field: data-value, "class",
        "text", "type"}: read in one script, so a refresh cannot swap a row out halfway."""
        return self.driver.execute_script("""
            return [...document.querySelectorAll(`tr[data-testid="${arguments[0]}"]`)].map((row) => {
              const out = { id: row.dataset.id ?? null, type: row.dataset.type ?? null, class: row.className, text: row.innerText };
              for (const cell of row.querySelectorAll('[data-field]')) {
                out[cell.dataset.field] = cell.innerText;
                if (cell.dataset.value !== undefined) out['value:' + cell.dataset.field] = cell.dataset.value;
              }
              return out;
            });""", testid)

    def row_data(self, testid, id):
        return next((row for row in self.rows_data(testid) if row["id"] == id), None)

    def clock_ms(self):
        return int(self.find("#clock-now").get_attribute("data-ms"))


@pytest.fixture
def console(browser, console_server, request):
    page = Console(browser, console_server, request.node.name.removeprefix("test_"))
    page.open()
    return page


def http_get(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.headers, response.read().decode()


def admin(server, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{server.port}/admin/{path}", data=data, method=method,
                                     headers={"x-deltasync-admin-key": ADMIN_KEY, "content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


# MARK: - Served by the binary


def test_the_page_is_served_at_the_root_and_at_console_with_its_headers(console_server):
    for path in ["/", "/console"]:
        status, headers, body = http_get(f"http://127.0.0.1:{console_server.port}{path}")
        assert status == 200, path
        assert headers["content-type"] == "text/html; charset=utf-8"
        assert headers["cache-control"] == "no-store"
        policy = headers["content-security-policy"]
        assert "default-src 'self'" in policy
        assert "script-src 'self' 'unsafe-inline'" in policy and "style-src 'self' 'unsafe-inline'" in policy
        assert "<title>DeltaSync Console</title>" in body
        # Self-contained: nothing is loaded from another host.
        assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", body)
    embedded = (ROOT / "Backend" / "DeltaSyncConsole" / "console.html").read_text()
    assert body == embedded, "the binary serves an old page: run python3 scripts/embed-console.py and rebuild"


# MARK: - The explorer


def test_the_explorer_runs_a_query_and_documents_the_schema(console):
    # The keys came from the fragment, which is then cleared from the address bar.
    assert console.find("#api-key").get_attribute("value") == API_KEY
    assert console.find("#admin-key").get_attribute("value") == ADMIN_KEY
    assert "apiKey" not in console.driver.current_url
    assert json.loads(console.find("#gql-headers").get_attribute("value")) == {"x-api-key": API_KEY}

    # Schema docs from introspection: root fields with their argument and return types.
    console.until(lambda: console.visible('[data-testid="field-Query-listPosts"]'), "the schema docs never listed listPosts")
    assert console.visible('[data-testid="field-Mutation-createBlog"]')
    assert console.visible('[data-testid="field-Subscription-onCreatePost"]')
    create_post = console.find('[data-testid="field-Mutation-createPost"]').text
    assert create_post == "createPost(input: CreatePostInput!, condition: ModelPostConditionInput): Post", create_post
    console.shot("1-schema")

    # A type's fields, one click away; Back returns to the root fields.
    console.find('[data-testid="field-Mutation-createPost"] a.type-link[data-type="CreatePostInput"]').click()
    console.until(lambda: console.visible('[data-testid="type-name"]'), "the type was not shown")
    assert console.find('[data-testid="type-name"]').text == "CreatePostInput"
    assert console.visible('[data-testid="input-field-title"]').text == "title: String!"
    console.shot("2-type")
    console.find('[data-testid="type-detail"] a.type-link[data-type="PostStatus"]').click()
    console.until(lambda: console.find('[data-testid="type-name"]').text == "PostStatus", "a type inside a type")
    console.find("#docs-back").click()
    console.until(lambda: console.find('[data-testid="type-name"]').text == "CreatePostInput", "Back to the first type")
    console.find("#docs-back").click()
    console.until(lambda: console.visible('[data-testid="field-Query-listPosts"]'), "Back to the schema")

    # A query, its result as pretty JSON.
    result = console.run('mutation { createBlog(input: {id: "b1", name: "Notes"}) { id name _version } }')
    assert result == {"data": {"createBlog": {"id": "b1", "name": "Notes", "_version": 1}}}
    result = console.run("query Blogs($limit: Int) { listBlogs(limit: $limit) { items { id name } } }", {"limit": 10})
    assert result == {"data": {"listBlogs": {"items": [{"id": "b1", "name": "Notes"}]}}}
    assert console.find("#gql-result").get_attribute("data-state") == "done"
    assert "HTTP 200" in console.find("#gql-status").text
    assert '\n  "data": {' in console.find("#gql-result").text, "pretty-printed"
    console.shot("3-result")

    # Variables that are not JSON are reported and nothing is sent.
    console.type_into("#gql-variables", "{not json")
    before = int(console.find("#gql-result").get_attribute("data-run"))
    console.find("#gql-run").click()
    console.until(lambda: int(console.find("#gql-result").get_attribute("data-run")) > before, "no answer to bad JSON")
    assert "Variables are not valid JSON" in console.find("#gql-result").text

    # A field of the docs writes a template operation with its required arguments as variables.
    console.find('[data-testid="field-Query-getBlog"] .fname').click()
    assert "getBlog(id: $id)" in console.find("#gql-query").get_attribute("value")
    result = console.run(console.find("#gql-query").get_attribute("value"), {"id": "b1"})
    assert result["data"]["getBlog"]["name"] == "Notes"

    # The keys stay for this origin: the console opened without a fragment still has them.
    console.open(fragment="", path="/console")
    assert console.find("#api-key").get_attribute("value") == API_KEY
    assert console.find("#admin-key").get_attribute("value") == ADMIN_KEY


# MARK: - The inspector


# The inspector reads the fixture API, which works on both stores.
@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_a_created_item_appears_in_the_inspector_then_its_tombstone(console):
    created = console.run('mutation { createBlog(input: {name: "From the console"}) { id name _version } }')
    blog = created["data"]["createBlog"]
    assert blog["_version"] == 1

    console.inspector("items")
    console.click('[data-testid="model-Blog"]')
    row = console.until(lambda: console.row_data("item-row", blog["id"]), "the created Blog never appeared in the inspector")
    assert row["_version"] == "1"
    assert "tombstone" not in row["class"]
    assert row["_deleted"] == "false"
    # _lastChangedAt as epoch milliseconds and as a date.
    changed_ms = int(row["value:_lastChangedAt"])
    shown_date = datetime.fromtimestamp(changed_ms / 1000, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    assert shown_date in row["_lastChangedAt"] and str(changed_ms) in row["_lastChangedAt"], row["_lastChangedAt"]
    assert "From the console" in row["fields"]
    console.shot("1-item")

    # Deleted, it stays as a tombstone with the next _version.
    console.explorer()
    deleted = console.run('mutation($id: ID!) { deleteBlog(input: {id: $id, _version: 1}) { id _deleted _version } }',
                          {"id": blog["id"]})
    assert deleted["data"]["deleteBlog"]["_deleted"] is True
    console.inspector("items")
    row = console.until(lambda: (r := console.row_data("item-row", blog["id"])) and "tombstone" in r["class"] and r,
                        "the deleted Blog was not marked as a tombstone")
    assert row["_version"] == "2"
    assert row["_deleted"] == "tombstone"
    # Its _ttl (epoch seconds, as DynamoDB's TTL) is shown as the date it expires: the tombstone TTL (30 days) on.
    ttl_seconds = int(row["value:_ttl"])
    assert 29 * 86400 < ttl_seconds - changed_ms / 1000 <= 31 * 86400, ttl_seconds
    expires = datetime.fromtimestamp(ttl_seconds, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    assert expires in row["_ttl"], row["_ttl"]
    console.until(lambda: console.find('[data-testid="model-Blog"]').text.endswith("1 · 1 · 2"),
                  "the model list counts one item, one tombstone, two deltas")
    console.shot("2-tombstone")

    # The delta log holds both changes, newest first.
    console.inspector("deltas")
    deltas = console.until(lambda: (rows := console.rows_data("delta-row")) and len(rows) == 2 and rows,
                           "the delta log did not show both changes")
    assert [row["_version"] for row in deltas] == ["2", "1"]
    assert all(row["id"] == blog["id"] for row in deltas)
    console.shot("3-deltas")

    # The request log lists the explorer's requests.
    console.inspector("requests")
    console.until(lambda: {"createBlog", "deleteBlog"} <= {name for row in console.rows_data("request-row")
                                                          for name in ("createBlog", "deleteBlog") if name in row["text"]},
                  "the request log did not list the mutations")
    console.shot("4-requests")


def test_the_inspector_refreshes_itself_while_shown(console):
    console.inspector("items")
    console.click('[data-testid="model-Post"]')
    console.until(lambda: console.visible('#items [data-testid="empty"]'), "Post has items before any was made")
    # A change made elsewhere (as another device would) shows up with no click: the page
    # refreshes every 2 s while it is visible.
    admin(console.server, "POST", "changes", {"model": "Post", "item": {"id": "p-elsewhere", "blogID": "b1",
                                                                         "title": "edited elsewhere"}})
    row = console.until(lambda: console.row_data("item-row", "p-elsewhere"), "the inspector did not refresh itself")
    assert row["_version"] == "1" and "edited elsewhere" in row["fields"]
    admin(console.server, "POST", "changes", {"model": "Post", "item": {"id": "p-elsewhere", "title": "again"}})
    console.until(lambda: (console.row_data("item-row", "p-elsewhere") or {}).get("_version") == "2",
                  "the second change did not show")
    console.until(lambda: console.find('[data-testid="model-Post"]').text.endswith("1 · 0 · 2"), "the model's counts")
    console.shot("1-refreshed")


# The inspector reads the fixture API, which works on both stores.
@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_conflicts_show_both_versions_and_the_outcome(console):
    blog = console.run('mutation { createBlog(input: {name: "v1"}) { id _version } }')["data"]["createBlog"]
    update = 'mutation($id: ID!, $name: String!) { updateBlog(input: {id: $id, name: $name, _version: 1}) { name _version } }'
    assert console.run(update, {"id": blog["id"], "name": "v2"})["data"]["updateBlog"]["_version"] == 2
    # Sent again with _version 1: a device that had not seen v2. Automerge settles it.
    console.run(update, {"id": blog["id"], "name": "v2 elsewhere"})

    console.inspector("conflicts")
    row = console.until(lambda: (rows := console.rows_data("conflict-row")) and rows[0], "the conflict was not listed")
    assert row["incomingVersion"] == "1"
    assert row["storedVersion"] == "2"
    assert row["outcome"].strip() not in ("", "—")
    assert "updateBlog" in row["text"]
    console.shot("1-conflict")


def test_the_clock_controls_freeze_advance_and_return_to_real_time(console):
    console.inspector("items")
    console.until(lambda: console.find("#clock-mode").text == "real", "the clock is not shown as real")
    console.find("#clock-freeze").click()
    console.until(lambda: console.find("#clock-mode").text == "frozen", "the clock did not freeze")
    frozen = console.clock_ms()
    console.shot("1-frozen")

    console.type_into("#clock-advance-by", "1h")
    console.find("#clock-advance").click()
    console.until(lambda: console.clock_ms() == frozen + 3_600_000, "the shown time did not move by an hour")
    shown = datetime.fromtimestamp((frozen + 3_600_000) / 1000, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3]
    assert console.find("#clock-now").text == shown + "Z"
    assert admin(console.server, "GET", "clock")["nowMilliseconds"] == frozen + 3_600_000
    console.shot("2-advanced")

    # What the server writes follows its clock: an item created now is an hour ahead.
    console.explorer()
    console.run('mutation { createBlog(input: {id: "later", name: "an hour later"}) { id } }')
    console.inspector("items")
    console.click('[data-testid="model-Blog"]')
    row = console.until(lambda: console.row_data("item-row", "later"), "the item created on the advanced clock")
    changed = int(row["value:_lastChangedAt"])
    assert frozen + 3_600_000 <= changed < frozen + 3_600_000 + 1_000

    console.type_into("#clock-set-to", "2030-01-02T03:04:05.000Z")
    console.find("#clock-set").click()
    console.until(lambda: console.find("#clock-now").text == "2030-01-02T03:04:05.000Z", "the clock was not set")

    console.find("#clock-real").click()
    console.until(lambda: console.find("#clock-mode").text == "real", "the clock did not return to real time")
    console.until(lambda: abs(console.clock_ms() - time.time() * 1000) < 60_000, "real time is not shown")
    console.shot("3-real")


def test_faults_are_added_with_their_forms_and_cleared(console):
    console.inspector("faults")
    console.until(lambda: console.visible('#faults [data-testid="empty"]'), "faults shown before any was added")

    def add(fault_type, **fields):
        form = console.find(f'form[data-testid="fault-form-{fault_type}"]')
        for name, value in fields.items():
            field = form.find_element(By.NAME, name)
            field.clear()
            field.send_keys(str(value))
        before = len(console.rows("fault-row"))
        form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
        console.until(lambda: len(console.rows("fault-row")) == before + 1, f"the {fault_type} fault was not listed")

    add("mutationError", field="createBlog", count=1)
    add("delay", milliseconds=10)
    rows = console.rows_data("fault-row")
    assert [row["type"] for row in rows] == ["mutationError", "delay"]
    assert rows[0]["remaining"] == "1"
    assert "createBlog" in rows[0]["text"]
    assert [f["type"] for f in admin(console.server, "GET", "faults")["faults"]] == ["mutationError", "delay"]
    console.shot("1-added")

    # The fault applies once, then is gone.
    console.explorer()
    failed = console.run('mutation { createBlog(input: {name: "refused"}) { id } }')
    assert failed["errors"][0]["errorType"] == "DynamoDB:ProvisionedThroughputExceededException"
    console.inspector("faults")
    console.until(lambda: [row["type"] for row in console.rows_data("fault-row")] == ["delay"],
                  "the spent mutationError fault is still listed")

    # Clear one with its button.
    console.click('tr[data-testid="fault-row"] [data-testid="fault-clear"]')
    console.until(lambda: not console.rows("fault-row"), "the cleared fault is still listed")

    add("conflict", field="updateBlog", count=2)
    add("refuseConnections", seconds=30)
    console.shot("2-two-more")
    console.find("#faults-clear-all").click()
    console.until(lambda: console.visible('#faults [data-testid="empty"]'), "Clear all left faults")
    assert admin(console.server, "GET", "faults")["faults"] == []
    console.shot("3-cleared")


def test_realtime_connections_are_listed_with_their_subscriptions(console):
    server = console.server
    header = base64.b64encode(json.dumps({"host": server.host, "x-api-key": API_KEY}).encode()).decode()
    url = f"ws://{server.host}/graphql?header={header}&payload=e30="
    with connect(url, subprotocols=["graphql-ws"], open_timeout=30) as socket:
        socket.send(json.dumps({"type": "connection_init"}))
        assert json.loads(socket.recv(timeout=30))["type"] == "connection_ack"
        socket.send(json.dumps({"id": "console-sub", "type": "start", "payload": {
            "data": json.dumps({"query": "subscription { onCreatePost { id } }", "variables": {}}),
            "extensions": {"authorization": {"host": server.host, "x-api-key": API_KEY}}}}))
        while (message := json.loads(socket.recv(timeout=30)))["type"] != "start_ack":
            assert message["type"] == "ka", message

        console.inspector("connections")
        console.until(lambda: any("onCreatePost" in row["text"] for row in console.rows_data("connection-row")),
                      "the connection and its subscription were not listed")
        assert console.find("#count-connections").text == "1"
        console.shot("1-connected")

    console.until(lambda: console.visible('#connections [data-testid="empty"]'), "the closed connection is still listed")


def test_a_wrong_admin_key_is_explained(console):
    console.inspector("items")
    console.until(lambda: console.visible('[data-testid="model-Post"]'), "the models were not listed")
    console.type_into("#admin-key", "not-the-key\n")
    console.find("#refresh").click()
    banner = console.until(lambda: console.visible("#admin-error"), "a wrong admin key was not reported")
    assert banner.text
    console.shot("1-wrong-key")
    console.type_into("#admin-key", ADMIN_KEY + "\n")
    console.find("#refresh").click()
    console.until(lambda: not console.visible("#admin-error"), "the banner stayed with the right key")


def test_without_the_fixture_api_the_explorer_works_and_the_inspector_says_why_it_is_empty(browser, server_factory):
    server = server_factory(schema_args=["--schema", str(EXAMPLE_SCHEMA), "--no-admin"])
    console = Console(browser, server, "no_admin")
    console.open(fragment=f"#apiKey={API_KEY}")
    assert console.run("{ listBlogs { items { id } } }") == {"data": {"listBlogs": {"items": []}}}
    console.inspector("items")
    banner = console.until(lambda: console.visible("#admin-error"), "the inspector did not explain")
    assert "admin key" in banner.text.lower()
    console.type_into("#admin-key", "some-admin-key\n")
    console.until(lambda: "--no-admin" in console.find("#admin-error").text, "a 404 from /admin/ was not explained")
    console.shot("1-no-admin")


# The inspector reads the fixture API, which works on both stores.
@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_a_saved_state_is_put_back_from_the_data_controls(console):
    admin(console.server, "POST", "changes", {"model": "Blog", "item": {"id": "kept", "name": "before saving"}})
    console.inspector("items")
    console.type_into('[data-testid="snapshot-name"]', "known")
    console.click('[data-testid="snapshot-save"]')
    console.until(lambda: admin(console.server, "GET", "snapshots")["snapshots"] == ["known"], "the state was not saved")
    admin(console.server, "POST", "changes", {"model": "Blog", "item": {"id": "later", "name": "after saving"}})
    console.click('[data-testid="model-Blog"]')
    console.until(lambda: console.row_data("item-row", "later"), "the later Blog never appeared")
    console.click('[data-testid="snapshot-restore"]')
    # The restored state shows: the later item is gone, the saved one is there.
    console.until(lambda: not console.row_data("item-row", "later") and console.row_data("item-row", "kept"),
                  "the inspector did not show the restored state")
    console.shot("1-restored")


def test_a_simulation_run_with_console_shows_its_timeline_in_the_inspector(browser):
    simulate = subprocess.Popen(
        [str(BINARY), "simulate", str(ROOT / "Examples" / "simulations" / "offline-edits.yaml"),
         "--schema", str(ROOT / "Examples" / "simulations" / "todos.graphql"), "--console"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        address = None
        for line in simulate.stderr:
            found = re.search(r"(http://127\.0\.0\.1:(\d+)/#apiKey=\S+)", line)
            if found:
                address = found
                break
        assert address, "simulate --console never said where its console is"

        class Running:
            port = int(address.group(2))

        page = Console(browser, Running(), "simulation")
        page.open(fragment=address.group(1).split("/", 3)[3])
        page.inspector("items")
        page.click("#subtab-simulation")
        page.until(lambda: page.visible("#panel-simulation"), "the simulation panel is not shown")
        frame = page.find("#simulation-timeline")
        page.until(lambda: "line 8: save phone Todo" in (frame.get_attribute("srcdoc") or ""), "the timeline never showed")
        browser.switch_to.frame(frame)
        page.until(lambda: "sent create Todo t1 v1" in browser.find_element(By.TAG_NAME, "body").text,
                   "the timeline's rows are not rendered")
        browser.switch_to.default_content()
        page.shot("timeline")
    finally:
        output, _ = simulate.communicate("\n", timeout=60)
    assert simulate.returncode == 0
    assert "passed: 15 steps" in output
