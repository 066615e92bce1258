#!/usr/bin/env python3
"""Fails when docker/Dockerfile, compose.yaml and CI (scripts/test.sh) disagree about how the
server is built, staged and started.

There is no Docker engine in CI, so the image is never built there. What keeps it honest: the
image's build stage runs scripts/build-server.sh, the script CI runs before the end-to-end tests;
the tests run the staged binary with the image's ENTRYPOINT, CMD and HEALTHCHECK and with each
compose service's command (Tests/e2e/test_container.py, which reads them with this module); and
this check holds the pieces together: the script call, the staged folder and where the image
copies it, the paths the commands name, the port, the user, the toolchain.
"""
import json
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCKERFILE = os.path.join(ROOT, "docker", "Dockerfile")
COMPOSE = os.path.join(ROOT, "compose.yaml")
TEST_SH = os.path.join(ROOT, "scripts", "test.sh")
BUILD_SCRIPT = "scripts/build-server.sh"
# What scripts/build-server.sh puts in its OUTDIR (besides Swift libraries in debug builds).
STAGED_FILES = {"deltasync", "schema.graphql"}
ENTRYPOINT_PREFIX = ["deltasync", "serve", "--host", "0.0.0.0", "--data-dir", "/data"]


def instructions(path=None):
    """The Dockerfile's instructions as (stage, INSTRUCTION, arguments), continuations joined,
    comments dropped, `ARG` defaults substituted into `FROM`."""
    with open(path or DOCKERFILE, encoding="utf-8") as file:
        text = file.read()
    logical, pending = [], ""
    for line in text.splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        logical.append(pending + line)
        pending = ""
    args, result, stage = {}, [], -1
    for line in logical:
        name, _, rest = line.strip().partition(" ")
        name, rest = name.upper(), rest.strip()
        if name == "ARG" and stage < 0:
            key, _, value = rest.partition("=")
            args[key] = value
            continue
        if name == "FROM":
            stage += 1
            rest = re.sub(r"\$\{(\w+)\}", lambda match: args.get(match.group(1), match.group(0)), rest)
        result.append((stage, name, rest))
    return result


def exec_form(arguments, what):
    """An instruction's JSON (exec) form as a list; shell form is refused."""
    try:
        value = json.loads(arguments)
    except json.JSONDecodeError:
        raise ValueError(f"{what} must be in JSON form ([\"...\", ...]), got: {arguments}")
    if not (isinstance(value, list) and all(isinstance(item, str) for item in value)):
        raise ValueError(f"{what} must be a JSON array of strings, got: {arguments}")
    return value


def image(path=None):
    """What the image is made of and how it starts, read from the Dockerfile."""
    found = {"stages": [], "run": [], "copy_from_build": [], "expose": [], "volumes": []}
    for stage, name, rest in instructions(path or DOCKERFILE):
        if name == "FROM":
            found["stages"].append(rest)
        elif name == "RUN":
            found["run"].append((stage, rest))
        elif name == "COPY" and rest.startswith("--from="):
            source, target = rest.split()[1:3]
            found["copy_from_build"].append((source.rstrip("/"), target.rstrip("/")))
        elif name == "ENTRYPOINT":
            found["entrypoint"] = exec_form(rest, "ENTRYPOINT")
        elif name == "CMD":
            found["cmd"] = exec_form(rest, "CMD")
        elif name == "HEALTHCHECK":
            options, _, command = rest.partition("CMD ")
            found["healthcheck"] = exec_form(command.strip(), "HEALTHCHECK CMD")
            found["healthcheck_options"] = options.split()
        elif name == "EXPOSE":
            found["expose"] += [int(port.split("/")[0]) for port in rest.split()]
        elif name == "USER":
            found["user"] = rest
        elif name == "VOLUME":
            found["volumes"] += json.loads(rest) if rest.startswith("[") else rest.split()
        elif name == "ENV":
            found.setdefault("env", []).append(rest)
    calls = [(stage, shlex.split(command)) for stage, command in found["run"] if BUILD_SCRIPT in command]
    found["build_calls"] = calls
    if len(calls) == 1:
        argv = calls[0][1]
        found["staged_dir"] = argv[-1].rstrip("/")
    copies = [target for source, target in found["copy_from_build"] if source == found.get("staged_dir")]
    if copies:
        found["app_dir"] = copies[0]
    return found


def compose_services(path=None):
    """Each service's `command` and `healthcheck.test` (JSON arrays on one line) by service."""
    services, current, section = {}, None, None
    with open(path or COMPOSE, encoding="utf-8") as file:
        for line in file:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            indent = len(line) - len(line.lstrip())
            if indent == 0:
                section = line.strip().rstrip(":")
                current = None
                continue
            if section == "services" and indent == 2 and line.strip().endswith(":"):
                current = services.setdefault(line.strip()[:-1], {})
                continue
            if current is None:
                continue
            match = re.match(r"\s+(command|test):\s*(.*)$", line)
            if match:
                key = "healthcheck" if match.group(1) == "test" else "command"
                current[key] = exec_form(match.group(2), f"compose.yaml {key}")
    return services


def toolchain_version():
    try:
        output = subprocess.run(["swift", "--version"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    match = re.search(r"Swift version (\d+)\.(\d+)", output)
    return (int(match.group(1)), int(match.group(2))) if match else None


def default_port():
    with open(os.path.join(ROOT, "Backend/DeltaSyncServer/Configuration/ServerConfiguration.swift"), encoding="utf-8") as file:
        match = re.search(r"public var port: Int = (\d+)", file.read())
    return int(match.group(1)) if match else None


def check():
    failures = []
    try:
        found = image()
        services = compose_services()
    except (OSError, ValueError) as error:
        return [str(error)]

    # The build: the script, with --release, in the build stage; its folder copied whole.
    if len(found["stages"]) != 2:
        failures.append(f"docker/Dockerfile: expected two stages (build, runtime), found {found['stages']}")
    calls = found["build_calls"]
    if len(calls) != 1:
        failures.append(f"docker/Dockerfile: RUN {BUILD_SCRIPT} --release DIR once in the build stage; found {len(calls)}")
    else:
        stage, argv = calls[0]
        if stage != 0 or argv[:3] != ["bash", BUILD_SCRIPT, "--release"] or len(argv) != 4:
            failures.append(f"docker/Dockerfile: the build stage must run `bash {BUILD_SCRIPT} --release DIR`, got {argv}")
        if "app_dir" not in found:
            failures.append(f"docker/Dockerfile: no `COPY --from=build {found.get('staged_dir')}/ ...` of the staged folder")
    if any("swift build" in command for _, command in found["run"]):
        failures.append(f"docker/Dockerfile: build with {BUILD_SCRIPT} only, not `swift build` of its own")
    build_image = found["stages"][0] if found["stages"] else ""
    runtime_image = found["stages"][-1] if found["stages"] else ""
    version = re.match(r"swift:(\d+)\.(\d+)(?:\.\d+)?-(\w+)", build_image)
    if not version:
        failures.append(f"docker/Dockerfile: the build stage must start FROM swift:MAJOR.MINOR-DISTRO, got {build_image}")
    else:
        image_version = (int(version.group(1)), int(version.group(2)))
        if image_version < (6, 1):
            failures.append(f"docker/Dockerfile: swift {image_version} is older than 6.1")
        ci_version = toolchain_version()
        if ci_version and ci_version != image_version:
            failures.append(f"docker/Dockerfile: builds with Swift {image_version[0]}.{image_version[1]}, CI with "
                            f"{ci_version[0]}.{ci_version[1]}: set ARG SWIFT_VERSION to CI's")
        distro = version.group(3)
        if not re.match(rf"(debian|ubuntu):{distro}-slim|(debian|ubuntu):{distro}\b", runtime_image.split()[0]):
            failures.append(f"docker/Dockerfile: the runtime image {runtime_image} is not the build image's distribution "
                            f"({distro}): the binary needs the glibc it was linked against")
    if not any("libsqlite3-0" in command for stage, command in found["run"] if stage == 1):
        failures.append("docker/Dockerfile: the runtime stage must install libsqlite3-0")

    # How it runs: non-root, the port, the data folder, the command and the health check.
    if found.get("user") != "deltasync" or not any("useradd" in c and "deltasync" in c for _, c in found["run"]):
        failures.append("docker/Dockerfile: run as the non-root user deltasync (useradd ... deltasync; USER deltasync)")
    port = default_port()
    if found["expose"] != [port]:
        failures.append(f"docker/Dockerfile: EXPOSE {found['expose']} is not the server's default port {port}")
    if "/data" not in found["volumes"]:
        failures.append("docker/Dockerfile: VOLUME /data missing")
    entrypoint = found.get("entrypoint", [])
    if entrypoint[:len(ENTRYPOINT_PREFIX)] != ENTRYPOINT_PREFIX:
        failures.append(f"docker/Dockerfile: ENTRYPOINT must start {ENTRYPOINT_PREFIX}, got {entrypoint}")
    app = found.get("app_dir", "")
    for where, arguments in [("CMD", found.get("cmd", []))] + [
            (f"compose.yaml service {name}", service.get("command", [])) for name, service in services.items()]:
        for argument in arguments:
            if app and argument.startswith(app + "/") and os.path.relpath(argument, app) not in STAGED_FILES:
                failures.append(f"{where}: {argument} is not in the staged folder ({sorted(STAGED_FILES)})")
    if not any(f.startswith("PATH=" + app) for f in found.get("env", [])):
        failures.append(f"docker/Dockerfile: ENV PATH must start with {app}, where the deltasync binary is")
    health = found.get("healthcheck", [])
    if not any(re.fullmatch(rf"http://(127\.0\.0\.1|localhost):{port}/health/ready", part) for part in health):
        failures.append(f"docker/Dockerfile: HEALTHCHECK must ask http://127.0.0.1:{port}/health/ready, got {health}")

    # compose.yaml: the image of docker/Dockerfile, the two profiles.
    with open(COMPOSE, encoding="utf-8") as file:
        compose = file.read()
    if "dockerfile: docker/Dockerfile" not in compose:
        failures.append("compose.yaml: build the image from docker/Dockerfile")
    for name in ("fixture", "staging"):
        if "command" not in services.get(name, {}):
            failures.append(f"compose.yaml: service {name} with a one-line JSON `command` is missing")

    # CI: the same script, in debug mode, and the end-to-end tests on what it staged.
    with open(TEST_SH, encoding="utf-8") as file:
        test_sh = file.read()
    ci_calls = re.findall(rf"^bash {re.escape(BUILD_SCRIPT)} (\S+)\s*$", test_sh, re.MULTILINE)
    if len(ci_calls) != 1:
        failures.append(f"scripts/test.sh: run `bash {BUILD_SCRIPT} DIR` (debug) once before the end-to-end tests")
    elif not re.search(rf'DELTASYNC_BIN="(\$PWD/)?{re.escape(ci_calls[0])}/deltasync"', test_sh):
        failures.append(f"scripts/test.sh: the end-to-end tests must run {ci_calls[0]}/deltasync (DELTASYNC_BIN)")
    return failures


if __name__ == "__main__":
    problems = check()
    print("\n".join(problems) if problems else "docker/Dockerfile, compose.yaml and scripts/test.sh agree")
    sys.exit(1 if problems else 0)
