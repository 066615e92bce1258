"""Runs a command the way the image runs it, without a container engine: in the image's runtime
root filesystem (scripts/image-rootfs.sh), with a folder mounted at the image's /opt/deltasync
and another at /data, /proc mounted, as the image's user, with the image's environment, in a
mount namespace of the command's own (the mounts vanish with it). Used by the smoke suite
(Tests/e2e/test_image.py) and scripts/image-benchmark.py; needs root.

Everything about the image is read from docker/Dockerfile and docker/runtime.sh
(scripts/check-docker.py), so this cannot drift from the image.
"""
import importlib.util
import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("check_docker", ROOT / "scripts" / "check-docker.py")
check_docker = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_docker)

IMAGE = check_docker.image()
RUNTIME = check_docker.runtime_settings()
USER_ID = int(RUNTIME["USER_ID"])
# What a container gets when the image sets no PATH of its own (Docker's default).
DOCKER_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def environment():
    """The image's ENV lines applied over Docker's defaults, plus HOME from the user's entry."""
    values = {"PATH": DOCKER_PATH, "HOME": RUNTIME["DATA"]}
    for line in IMAGE.get("env", []):
        name, _, value = line.partition("=")
        values[name] = re.sub(r"\$(\w+)|\$\{(\w+)\}", lambda m: values.get(m.group(1) or m.group(2), ""), value)
    return values


def command(argv, rootfs, app, data, workdir=None):
    """A command line that runs argv in the image: `app` mounted at the image's app folder,
    `data` at its data folder, as its user, in `workdir` (the image's WORKDIR by default)."""
    user = f"{USER_ID}:{USER_ID}"
    variables = [f"{name}={value}" for name, value in environment().items()]
    script = ('mkdir -p "$3$4" && mount --bind "$1" "$3$4" && mount --bind "$2" "$3$5" && mount -t proc proc "$3/proc" '
              '&& shift 5 && exec chroot --userspec="$1" --groups= "$2" /usr/bin/env -i -C "$3" "${@:4}"')
    return ["unshare", "--mount", "--propagation", "private", "bash", "-c", script, "bash",
            str(app), str(data), str(rootfs), IMAGE["app_dir"], RUNTIME["DATA"],
            user, str(rootfs), workdir or IMAGE.get("workdir", "/"), *variables, *argv]


def server_arguments(port):
    """The image's ENTRYPOINT and CMD, with `--port` for a port of the caller's choosing."""
    return IMAGE["entrypoint"] + IMAGE["cmd"] + ["--port", str(port)]


def health_check(port):
    """The image's HEALTHCHECK command, asking `port`."""
    return [part.replace(":20002/", f":{port}/") for part in IMAGE["healthcheck"] if part != "CMD"]


def new_data_folder(parent=None):
    """An empty folder owned by the image's user, as Docker makes a new volume."""
    import tempfile
    folder = Path(tempfile.mkdtemp(prefix="deltasync-image-data-", dir=parent))
    os.chown(folder, USER_ID, USER_ID)
    return folder
