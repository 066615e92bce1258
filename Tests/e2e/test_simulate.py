"""`deltasync simulate`: a scenario file's devices against a server of a schema, reported as text,
JSON or JUnit XML, with the exit status CI needs."""
import json
import subprocess
import xml.etree.ElementTree as ElementTree

from conftest import BINARY, ROOT

EXAMPLES = ROOT / "Examples" / "simulations"


def simulate(scenario, *flags):
    return subprocess.run(
        [str(BINARY), "simulate", str(scenario), "--schema", str(EXAMPLES / "todos.graphql"), *flags],
        capture_output=True, text=True, timeout=180)


def test_the_example_passes_and_reports_each_step_as_a_junit_test_case():
    result = simulate(EXAMPLES / "offline-edits.yaml", "--conflict-handler", "automerge", "--format", "junit")
    assert result.returncode == 0, result.stdout + result.stderr
    suite = ElementTree.fromstring(result.stdout)
    assert suite.get("failures") == "0"
    cases = suite.findall("testcase")
    assert len(cases) == int(suite.get("tests")) == 15
    assert cases[0].get("name").startswith("line 8: save phone Todo")


def test_a_failing_step_exits_1_and_names_its_line_and_what_differed(tmp_path):
    scenario = tmp_path / "wrong.yaml"
    scenario.write_text(
        "devices: [phone]\n"
        "steps:\n"
        "  - save: {device: phone, model: Todo, item: {id: t1, name: milk}}\n"
        "  - converge\n"
        "  - expect: {model: Todo, key: {id: t1}, on: server, fields: {name: tea}}\n"
        "  - converge\n")
    result = simulate(scenario, "--format", "json")
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    assert report["passed"] is False
    assert [step["line"] for step in report["results"]] == [3, 4, 5]
    assert report["results"][2]["failure"] == 'server\'s Todo {"id":"t1"} has name "milk", expected "tea".'
    text = simulate(scenario)
    assert "FAIL line 5: expect Todo" in text.stdout
    assert "failed at step 3 of 4, 1 not run" in text.stdout


def test_a_malformed_scenario_is_a_usage_error_at_its_line(tmp_path):
    scenario = tmp_path / "typo.yaml"
    scenario.write_text("devices: [phone]\nsteps:\n  - converge\n  - sve: {device: phone}\n")
    result = simulate(scenario)
    assert result.returncode == 64
    assert f"{scenario}:4: sve is not a step." in result.stderr


def test_random_mode_converges_and_says_its_seed():
    result = subprocess.run(
        [str(BINARY), "simulate", "--random", "--devices", "3", "--steps", "40", "--seed", "7",
         "--schema", str(EXAMPLES / "todos.graphql")],
        capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "passed: seed 7, 3 devices, 40 steps converged at every quiet point"


def test_random_mode_takes_no_scenario_file():
    result = simulate(EXAMPLES / "offline-edits.yaml", "--random")
    assert result.returncode == 64
    assert "--random makes its own scenario: pass no scenario file." in result.stderr
