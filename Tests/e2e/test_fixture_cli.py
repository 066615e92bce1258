"""The fixture API from the command line, as a CI script uses it: `exec` hands the admin key to
the test command, `--seed` fills the store first, `export`/`import` restore a state, and
`config` writes the files Amplify apps read."""
import json
import subprocess

from conftest import BINARY, EXAMPLE_SCHEMA


def run(*arguments, **kwargs):
    return subprocess.run([str(BINARY), *arguments], capture_output=True, text=True, timeout=120, **kwargs)


SCRIPT = r"""
import json, os, subprocess, sys, urllib.request
binary, out = sys.argv[1], sys.argv[2]
url, key = os.environ["DELTASYNC_URL"], os.environ["DELTASYNC_API_KEY"]
def graphql(query):
    request = urllib.request.Request(url, method="POST", data=json.dumps({"query": query}).encode(),
        headers={"content-type": "application/json", "x-api-key": key})
    return json.load(urllib.request.urlopen(request))
def admin(path):
    request = urllib.request.Request(url.replace("/graphql", "/admin/" + path),
        headers={"x-deltasync-admin-key": os.environ["DELTASYNC_ADMIN_KEY"]})
    return json.load(urllib.request.urlopen(request))
def cli(*arguments):
    subprocess.run([binary, *arguments], check=True, capture_output=True, text=True)

# The seed is there, with its metadata.
seeded = graphql("query { getBlog(id: \"seeded\") { name _version } }")["data"]["getBlog"]
assert seeded == {"name": "From the seed", "_version": 4}, seeded
# export, change, import: the change is gone.
cli("export", "--out", out + "/snapshot.json")
graphql("mutation { createBlog(input: {id: \"later\", name: \"after the export\"}) { id } }")
cli("import", out + "/snapshot.json")
assert graphql("query { getBlog(id: \"later\") { id } }")["data"]["getBlog"] is None
assert admin("status")["models"][0]["items"] == 1
# The same as a database file.
cli("export", "--format", "sqlite", "--out", out + "/snapshot.sqlite")
graphql("mutation { createBlog(input: {id: \"again\", name: \"after the export\"}) { id } }")
cli("import", out + "/snapshot.sqlite")
assert graphql("query { getBlog(id: \"again\") { id } }")["data"]["getBlog"] is None
assert graphql("query { getBlog(id: \"seeded\") { _version } }")["data"]["getBlog"] == {"_version": 4}
cli("config", "--out", out + "/app")
print("ok")
"""


def test_exec_seeds_and_the_command_exports_imports_and_writes_the_app_configuration(tmp_path):
    seed = tmp_path / "seed.json"
    seed.write_text(json.dumps({"Blog": [{"id": "seeded", "name": "From the seed", "_version": 4}]}))
    result = run("exec", "--schema", str(EXAMPLE_SCHEMA), "--in-memory", "--port", "0", "--log-level", "error",
                 "--seed", str(seed), "--", "python3", "-c", SCRIPT, str(BINARY), str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith("ok")
    assert (tmp_path / "snapshot.sqlite").read_bytes().startswith(b"SQLite format 3\0")
    snapshot = json.loads((tmp_path / "snapshot.json").read_text())
    assert snapshot["format"] == "deltasync-snapshot"
    assert snapshot["models"]["Blog"]["items"][0]["_version"] == 4
    amplify = json.loads((tmp_path / "app" / "amplifyconfiguration.json").read_text())
    api = amplify["api"]["plugins"]["awsAPIPlugin"]["deltasync"]
    assert api["endpoint"].startswith("http://127.0.0.1:") and api["endpoint"].endswith("/graphql")
    assert api["authorizationType"] == "API_KEY" and api["apiKey"].startswith("da2-")
    exports = (tmp_path / "app" / "aws-exports.js").read_text()
    assert '"aws_appsync_authenticationType": "API_KEY"' in exports
    assert '"aws_appsync_dangerously_connect_to_http_endpoint_for_testing": true' in exports
    outputs = json.loads((tmp_path / "app" / "amplify_outputs.json").read_text())
    assert outputs["data"]["url"] == api["endpoint"] and outputs["data"]["api_key"] == api["apiKey"]
    assert outputs["data"]["model_introspection"]["models"]["Blog"]["fields"]["posts"]["association"]["connectionType"] == "HAS_MANY"


def test_a_bad_seed_file_stops_the_start_with_the_line_at_fault(tmp_path):
    seed = tmp_path / "seed.json"
    seed.write_text('{"Blog": [\n  {"id": "b1", "name": "fine"},\n  {"id": "b2", "name": null}\n]}\n')
    result = run("serve", "--schema", str(EXAMPLE_SCHEMA), "--in-memory", "--port", "0", "--seed", str(seed))
    assert result.returncode != 0
    assert f"{seed}: Seed line 3, Blog[1]" in result.stderr, result.stderr
    assert "Blog.name is required" in result.stderr


def test_no_admin_leaves_the_fixture_api_out_of_the_environment_and_the_server():
    probe = ("import os, urllib.request, urllib.error\n"
             "assert 'DELTASYNC_ADMIN_KEY' not in os.environ\n"
             "try:\n"
             "    urllib.request.urlopen(os.environ['DELTASYNC_URL'].replace('/graphql', '/admin/status'))\n"
             "except urllib.error.HTTPError as error:\n"
             "    print(error.code)\n")
    result = run("exec", "--schema", str(EXAMPLE_SCHEMA), "--in-memory", "--port", "0", "--log-level", "error",
                 "--no-admin", "--", "python3", "-c", probe)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "404"
