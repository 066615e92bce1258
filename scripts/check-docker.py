#!/usr/bin/env python3
"""Fails when docker/Dockerfile, compose.yaml and CI (scripts/test.sh) disagree about how the
server is built, staged and started.

There is no Docker engine in CI, so the image is never built there. What keeps it honest: the
image's build stage runs scripts/build-server.sh, the script CI runs before the end-to-end tests;
the tests run the staged binary with the image's ENTRYPOINT, CMD and HEALTHCHECK and with each
compose service's command (Tests/e2e/test_container.py, which reads them with this module); and
this check holds the pieces together: the script call, the staged folder and where the image
copies it, the paths the commands name, the flags they pass (against `deltasync serve --help`),
the port, the user, the toolchain; and for the `shared` profile, the PostgreSQL service and the
instances on it (their database URL, keys, ports, start order).
"""
import json
import os
import re
import shlex
import subprocess
import sys
from urllib.parse import parse_qsl, unquote, urlsplit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCKERFILE = os.path.join(ROOT, "docker", "Dockerfile")
COMPOSE = os.path.join(ROOT, "compose.yaml")
TEST_SH = os.path.join(ROOT, "scripts", "test.sh")
BUILD_SCRIPT = "scripts/build-server.sh"
# The runtime stage's packages, user and folders.
RUNTIME_SCRIPT = "docker/runtime.sh"
# What scripts/build-server.sh puts in its OUTDIR (besides Swift libraries in debug builds).
STAGED_FILES = {"deltasync", "schema.graphql"}
ENTRYPOINT_PREFIX = ["deltasync", "serve", "--host", "0.0.0.0", "--data-dir", "/data"]
# compose.yaml's profiles, each with at least one service.
PROFILES = ("fixture", "staging", "shared")
# The profile of several instances on one PostgreSQL service.
SHARED_PROFILE = "shared"
POSTGRES_SETTINGS = os.path.join(ROOT, "Backend", "DeltaSyncPostgres", "PostgresStoreSettings.swift")


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
        elif name == "WORKDIR" and stage == 1:
            found["workdir"] = rest
    calls = [(stage, shlex.split(command)) for stage, command in found["run"] if BUILD_SCRIPT in command]
    found["build_calls"] = calls
    if len(calls) == 1:
        argv = calls[0][1]
        found["staged_dir"] = argv[-1].rstrip("/")
    copies = [target for source, target in found["copy_from_build"] if source == found.get("staged_dir")]
    if copies:
        found["app_dir"] = copies[0]
    return found


def runtime_settings(path=None):
    """docker/runtime.sh's settings: its `NAME=value` lines, the package list and the text."""
    with open(path or os.path.join(ROOT, RUNTIME_SCRIPT), encoding="utf-8") as file:
        text = file.read()
    settings = dict(re.findall(r'^([A-Z_]+)="?([^"\n]*)"?$', text, re.MULTILINE))
    settings["packages"] = settings.get("PACKAGES", "").split()
    settings["text"] = text
    return settings


class YAMLSubset:
    """The YAML compose.yaml is written in (no PyYAML in CI's virtualenv): block mappings and
    sequences, comments, quoted and plain scalars (kept as strings), `[...]` lists in JSON form,
    anchors (`&name`) and merge keys (`<<: *name`). Anything else is refused with its line."""

    def __init__(self, text, path):
        self.path = path
        self.anchors = {}
        self.lines = []
        for number, line in enumerate(text.splitlines(), 1):
            content = self.strip_comment(line).rstrip()
            if content.strip():
                if "\t" in content[:len(content) - len(content.lstrip())]:
                    raise self.error(number, "indent with spaces, not tabs")
                self.lines.append((number, len(content) - len(content.lstrip()), content.strip()))

    @staticmethod
    def strip_comment(line):
        quote = None
        for index, character in enumerate(line):
            if quote:
                quote = None if character == quote else quote
            elif character in "\"'":
                quote = character
            elif character == "#" and (index == 0 or line[index - 1] in " \t"):
                return line[:index]
        return line

    def error(self, number, message):
        return ValueError(f"{os.path.relpath(self.path, ROOT)}:{number}: {message}")

    def document(self):
        if not self.lines:
            return {}
        value, index = self.block(0, self.lines[0][1])
        if index != len(self.lines):
            raise self.error(self.lines[index][0], "unexpected indentation")
        return value

    def block(self, index, indent):
        text = self.lines[index][2]
        if text == "-" or text.startswith("- "):
            return self.sequence(index, indent)
        return self.mapping(index, indent)

    def sequence(self, index, indent):
        items = []
        while index < len(self.lines) and self.lines[index][1] == indent:
            number, _, text = self.lines[index]
            if not (text == "-" or text.startswith("- ")):
                break
            rest = text[1:].strip()
            if not rest:
                if index + 1 < len(self.lines) and self.lines[index + 1][1] > indent:
                    value, index = self.block(index + 1, self.lines[index + 1][1])
                else:
                    value, index = None, index + 1
            elif re.match(r"[\w<.-]+:(\s|$)", rest) and not rest.startswith(("\"", "'")):
                # `- key: value` opens a mapping at the item's column.
                self.lines[index] = (number, indent + 2, rest)
                value, index = self.mapping(index, indent + 2)
            else:
                value, index = self.scalar(number, rest), index + 1
            items.append(value)
        return items, index

    def mapping(self, index, indent):
        result, merged = {}, []
        while index < len(self.lines) and self.lines[index][1] == indent:
            number, _, text = self.lines[index]
            if text.startswith("- "):
                break
            match = re.match(r"(\"[^\"]*\"|'[^']*'|[^\s\"'][^:]*?):(?:\s+(.*))?$", text)
            if not match:
                raise self.error(number, f"expected `key: value`, got: {text}")
            key, rest = match.group(1).strip("\"'"), (match.group(2) or "").strip()
            anchor = None
            if rest.startswith("&"):
                anchor, _, rest = rest[1:].partition(" ")
                rest = rest.strip()
            index += 1
            if rest:
                value = self.scalar(number, rest)
            elif index < len(self.lines) and (self.lines[index][1] > indent or (
                    self.lines[index][1] == indent and self.lines[index][2].startswith("- "))):
                value, index = self.block(index, self.lines[index][1])
            else:
                value = None
            if anchor:
                self.anchors[anchor] = value
            if key == "<<":
                if not isinstance(value, dict):
                    raise self.error(number, "`<<:` merges a mapping (`<<: *name`)")
                merged.append(value)
            elif key in result:
                raise self.error(number, f"`{key}` is set twice")
            else:
                result[key] = value
        for values in merged:
            for key, value in values.items():
                result.setdefault(key, value)
        return result, index

    def scalar(self, number, text):
        if text.startswith("*"):
            if text[1:] not in self.anchors:
                raise self.error(number, f"no anchor &{text[1:]} above")
            return self.anchors[text[1:]]
        if text.startswith("["):
            try:
                return json.loads(text)
            except json.JSONDecodeError:
                raise self.error(number, f"write [...] lists in JSON form, on one line: {text}")
        if text.startswith("{") or text[0] in "|>":
            raise self.error(number, f"write mappings and text in block form: {text}")
        if text.startswith('"'):
            try:
                return json.loads(text)
            except json.JSONDecodeError:
                raise self.error(number, f"not a one-line double-quoted string: {text}")
        if text.startswith("'"):
            if len(text) < 2 or not text.endswith("'"):
                raise self.error(number, f"not a one-line single-quoted string: {text}")
            return text[1:-1].replace("''", "'")
        return text


def compose_file(path=None):
    """compose.yaml as plain values (every scalar a string), anchors and merge keys resolved."""
    path = path or COMPOSE
    with open(path, encoding="utf-8") as file:
        document = YAMLSubset(file.read(), path).document()
    if not isinstance(document, dict):
        raise ValueError(f"{os.path.relpath(path, ROOT)}: expected a mapping at the top")
    return document


def compose_services(path=None):
    """Each service's settings by name, with `command` and `healthcheck` (its `test`) as
    lists (JSON arrays on one line in the file); `healthcheck_settings` keeps the rest."""
    services = {}
    for name, settings in ((compose_file(path) or {}).get("services") or {}).items():
        service = dict(settings or {})
        if "command" in service:
            service["command"] = exec_list(service["command"], f"compose.yaml service {name}: command")
        health = service.pop("healthcheck", None)
        if isinstance(health, dict):
            service["healthcheck_settings"] = health
            if "test" in health:
                service["healthcheck"] = exec_list(health["test"], f"compose.yaml service {name}: healthcheck.test")
        services[name] = service
    return services


def exec_list(value, what):
    """A compose exec-form list; a string (shell form) is refused as `exec_form` refuses it."""
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return value
    return exec_form(value if isinstance(value, str) else json.dumps(value), what)


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


def server_binary():
    """The `deltasync` whose `serve --help` the commands are checked against: $DELTASYNC_BIN,
    else the staged one, else the debug build; None when there is none."""
    candidates = [os.environ.get("DELTASYNC_BIN"), os.path.join(ROOT, ".build", "staged", "deltasync"),
                  os.path.join(ROOT, ".build", "debug", "deltasync")]
    return next((path for path in candidates if path and os.access(path, os.X_OK)), None)


def serve_flags(binary):
    """The flags `deltasync serve --help` lists (option lines start two spaces in)."""
    output = subprocess.run([binary, "serve", "--help"], capture_output=True, text=True, timeout=60,
                            env={**os.environ, "COLUMNS": "200"}).stdout
    return set(re.findall(r"^  (?:-\w, )?(--[a-z][a-z0-9-]*)", output, re.MULTILINE))


def database_url_settings():
    """The query settings `--database` URLs may carry, read from PostgresStoreSettings.swift's
    `case "name":` lines."""
    with open(POSTGRES_SETTINGS, encoding="utf-8") as file:
        return set(re.findall(r'case "(\w+)":', file.read()))


def interpolate(text):
    """compose's `${NAME:-default}` and `${NAME-default}` as their defaults, `${NAME:?message}`
    and `${NAME}` as NAME: what the file means when nothing is set."""
    return re.sub(r"\$\{(\w+)(?:(:?-)([^}]*)|:?\?[^}]*)?\}",
                  lambda match: match.group(3) if match.group(2) else match.group(1), text)


def host_port(mapping):
    """(host port, container port) of a `ports` entry such as "${DELTASYNC_PORT:-20002}:20002";
    None for the host port when compose picks one."""
    parts = interpolate(mapping).split("/")[0].split(":")
    container = int(parts[-1])
    return (int(parts[-2]) if len(parts) >= 2 and parts[-2] else None), container


def option(arguments, flag):
    """The values a command passes for `flag` (`--flag VALUE` or `--flag=VALUE`)."""
    values = []
    for index, argument in enumerate(arguments):
        if argument == flag and index + 1 < len(arguments):
            values.append(arguments[index + 1])
        elif argument.startswith(flag + "="):
            values.append(argument[len(flag) + 1:])
    return values


def uses_image(service):
    """Whether a compose service runs the DeltaSync image (builds docker/Dockerfile)."""
    build = service.get("build")
    return isinstance(build, dict) and build.get("dockerfile") == "docker/Dockerfile"


def in_profile(service, profile):
    """Whether `docker compose --profile PROFILE up` starts the service (no `profiles`: always)."""
    return not service.get("profiles") or profile in service["profiles"]


def check_shared_profile(services, declared_volumes, port):
    """The `shared` profile: one PostgreSQL service and at least two instances that use it."""
    failures = []
    where = f"compose.yaml profile {SHARED_PROFILE}"
    members = {name: service for name, service in services.items()
               if SHARED_PROFILE in (service.get("profiles") or [])}
    databases = {name: service for name, service in members.items()
                 if str(service.get("image", "")).split(":")[0] in ("postgres", "library/postgres", "docker.io/library/postgres")}
    instances = {name: service for name, service in members.items() if uses_image(service)}
    if len(databases) != 1:
        return [f"{where}: expected one service of the official postgres image, found {sorted(databases) or 'none'}"]
    if len(instances) < 2:
        failures.append(f"{where}: expected at least two DeltaSync instances, found {sorted(instances)}")
    (database_name, database), = databases.items()
    environment = database.get("environment") or {}
    if isinstance(environment, list):
        environment = dict(entry.partition("=")[::2] for entry in environment)
    environment = {key: interpolate(value or "") for key, value in environment.items()}
    user = environment.get("POSTGRES_USER", "postgres")
    name = environment.get("POSTGRES_DB", user)
    password = environment.get("POSTGRES_PASSWORD")
    if not password:
        failures.append(f"{where}: service {database_name} needs POSTGRES_PASSWORD (the image refuses to start without)")
    mounts = [str(volume).split(":") for volume in database.get("volumes") or []]
    if not any(len(parts) >= 2 and parts[0] in declared_volumes and parts[1].startswith("/var/lib/postgresql")
               for parts in mounts):
        failures.append(f"{where}: service {database_name} must keep its data in a named volume (declared under "
                        f"`volumes:`) mounted at /var/lib/postgresql/data")
    if "pg_isready" not in database.get("healthcheck", []):
        failures.append(f"{where}: service {database_name} needs a healthcheck.test running pg_isready")
    if not database.get("restart"):
        failures.append(f"{where}: service {database_name} needs a restart policy")
    known_settings = database_url_settings()

    api_keys, admin_keys = {}, {}
    for instance, service in sorted(instances.items()):
        command = service.get("command", [])
        what = f"{where}: service {instance}"
        urls = option(command, "--database")
        if len(urls) != 1:
            failures.append(f"{what}: pass --database postgres://... once, got {len(urls)}")
        for text in urls:
            url = urlsplit(interpolate(text))
            if url.scheme not in ("postgres", "postgresql"):
                failures.append(f"{what}: --database {text} is not a postgres:// URL")
                continue
            expected = [("host", url.hostname, database_name), ("port", url.port or 5432, 5432),
                        ("user", unquote(url.username or ""), user), ("database", unquote(url.path.lstrip("/")), name)]
            if password:
                expected.append(("password", unquote(url.password or ""), password))
            for part, got, wanted in expected:
                if got != wanted:
                    failures.append(f"{what}: --database names {part} {got!r}, the {database_name} service's is {wanted!r}")
            for key, value in parse_qsl(url.query, keep_blank_values=True):
                if key not in known_settings:
                    failures.append(f"{what}: --database setting {key!r} is not one of {sorted(known_settings)}")
                elif key == "sslmode" and value not in ("disable", "prefer", "require"):
                    failures.append(f"{what}: --database sslmode={value} is not disable, prefer or require")
        for contradiction in ("--in-memory", "--no-admin"):
            if contradiction in command:
                failures.append(f"{what}: {contradiction} has no place on an instance of a shared store")
        api_keys[instance] = sorted(option(command, "--api-key"))
        admin_keys[instance] = option(command, "--admin-key")
        depends = service.get("depends_on") or {}
        condition = depends.get(database_name) if isinstance(depends, dict) else None
        if not (isinstance(condition, dict) and condition.get("condition") == "service_healthy"):
            failures.append(f"{what}: depends_on {database_name} with condition: service_healthy (the store is "
                            f"opened at start; an unready database stops the server)")
        if not service.get("restart"):
            failures.append(f"{what}: needs a restart policy")
        for mapping in service.get("ports") or []:
            if host_port(str(mapping))[1] != port and not option(command, "--port"):
                failures.append(f"{what}: port {mapping} does not reach the server's port {port}")
    if len(set(map(tuple, api_keys.values()))) > 1 or any(not keys for keys in api_keys.values()):
        failures.append(f"{where}: every instance needs the same --api-key, so clients can use either: {api_keys}")
    if len(set(map(tuple, admin_keys.values()))) > 1 or any(len(keys) != 1 for keys in admin_keys.values()):
        failures.append(f"{where}: every instance needs the same --admin-key: {admin_keys}")
    return failures


# Keys must come from the environment, required: `${NAME:?how to set it}`.
REQUIRED_VARIABLE = re.compile(r"^\$\{\w+:\?[^}]+\}$")
# The profile of a shared server that outsiders reach: no fixture API there.
STAGING_SERVICE = "staging"


def check_keys_and_admin(services):
    """No key is written in compose.yaml (a default key is a key every reader of the file
    knows): `--api-key` and `--admin-key` take `${NAME:?message}`, so compose refuses to start
    without them. The staging service runs without the fixture API (`--no-admin`)."""
    failures = []
    for name, service in sorted(services.items()):
        if not uses_image(service):
            continue
        command = service.get("command", [])
        for flag in ("--api-key", "--admin-key"):
            for value in option(command, flag):
                if not REQUIRED_VARIABLE.match(value):
                    failures.append(f"compose.yaml service {name}: {flag} {value} is a key in the file (or a default); "
                                    f"take it from the environment with ${{NAME:?message}}")
    staging = services.get(STAGING_SERVICE, {})
    if "command" in staging and "--no-admin" not in staging["command"]:
        failures.append(f"compose.yaml service {STAGING_SERVICE}: pass --no-admin; a shared staging server has no fixture API")
    return failures


def check():
    failures = []
    try:
        found = image()
        compose = compose_file()
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
    # The runtime stage is docker/runtime.sh, which scripts/image-rootfs.sh runs too.
    runtime_runs = [command for stage, command in found["run"] if stage == 1]
    if runtime_runs != [f"--mount=type=bind,source={RUNTIME_SCRIPT},target=/tmp/runtime.sh sh /tmp/runtime.sh"]:
        failures.append(f"docker/Dockerfile: the runtime stage's only RUN must be {RUNTIME_SCRIPT} (bind-mounted at "
                        f"/tmp/runtime.sh), the script scripts/image-rootfs.sh runs; got {runtime_runs}")
    runtime = runtime_settings()
    if "libsqlite3-0" not in runtime["packages"]:
        failures.append(f"{RUNTIME_SCRIPT}: PACKAGES must include libsqlite3-0")

    # How it runs: non-root, the port, the data folder, the command and the health check.
    if found.get("user") != "deltasync" or runtime.get("USER_NAME") != "deltasync" or "useradd" not in runtime["text"]:
        failures.append(f"docker/Dockerfile: run as the non-root user deltasync (useradd in {RUNTIME_SCRIPT} with "
                        f"USER_NAME=deltasync; USER deltasync)")
    if runtime.get("DATA") != "/data" or found.get("workdir") != "/data":
        failures.append(f"docker/Dockerfile: WORKDIR /data, the data folder {RUNTIME_SCRIPT} makes (DATA=/data)")
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

    # compose.yaml: the image of docker/Dockerfile, the profiles, each DeltaSync service's
    # command, no two services of one profile on one host port.
    if not any(uses_image(service) for service in services.values()):
        failures.append("compose.yaml: build the image from docker/Dockerfile")
    for name in ("fixture", "staging"):
        if "command" not in services.get(name, {}):
            failures.append(f"compose.yaml: service {name} with a one-line JSON `command` is missing")
    for profile in PROFILES:
        if not any(profile in (service.get("profiles") or []) for service in services.values()):
            failures.append(f"compose.yaml: no service in profile {profile}")
    for name, service in services.items():
        if uses_image(service) and "command" not in service:
            failures.append(f"compose.yaml: service {name} runs the image: give it a one-line JSON `command`")
    declared_volumes = set(compose.get("volumes") or {})
    for name, service in services.items():
        for volume in service.get("volumes") or []:
            source = str(volume).split(":")[0]
            if source and not source.startswith((".", "/", "$", "~")) and source not in declared_volumes:
                failures.append(f"compose.yaml: service {name} mounts volume {source}, not declared under `volumes:`")
    profiles = sorted({profile for service in services.values() for profile in service.get("profiles") or []})
    for profile in profiles:
        taken = {}
        for name, service in services.items():
            if not in_profile(service, profile):
                continue
            for mapping in service.get("ports") or []:
                try:
                    host, _ = host_port(str(mapping))
                except ValueError:
                    failures.append(f"compose.yaml: service {name}: cannot read the port {mapping}")
                    continue
                if host is None:
                    continue
                if host in taken:
                    failures.append(f"compose.yaml profile {profile}: services {taken[host]} and {name} both publish "
                                    f"host port {host}")
                taken.setdefault(host, name)
    failures += check_shared_profile(services, declared_volumes, port)
    failures += check_keys_and_admin(services)

    # The flags every command passes: ones `deltasync serve` knows.
    binary = server_binary()
    if not binary:
        failures.append(f"no deltasync binary to read `serve --help` from: run `bash {BUILD_SCRIPT} .build/staged` "
                        f"(or set DELTASYNC_BIN)")
    else:
        flags = serve_flags(binary)
        if not flags:
            failures.append(f"{binary} serve --help lists no flags")
        commands = [("docker/Dockerfile ENTRYPOINT and CMD", entrypoint[2:] + found.get("cmd", []))] + [
            (f"compose.yaml service {name}", service.get("command", []))
            for name, service in services.items() if uses_image(service)]
        for where, arguments in commands:
            for argument in arguments:
                flag = argument.split("=")[0]
                if flags and flag.startswith("--") and flag not in flags:
                    failures.append(f"{where}: {flag} is not a flag of `deltasync serve` ({os.path.relpath(binary, ROOT)} "
                                    f"--help; rebuild it if it is older than the sources)")

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
