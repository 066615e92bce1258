#!/usr/bin/env python3
"""The image's figures, without a container engine: how long the server takes to be ready when
started as the image starts it (in the image's root filesystem, as its user, with its command and
the example schema), beside the same binary started directly on this machine in the same run
(the baseline: what the image's packaging adds), in alternating runs; and the image's size, as a
registry stores it: the layer docker/runtime.sh adds, the server's layer, and the whole image.

Needs root and a tree from scripts/image-rootfs.sh. APP is the folder the image copies to
/opt/deltasync: a release artifact's folder (the image's real content) or a staged folder.

Usage: scripts/image-benchmark.py APP --rootfs DIR [--runs N]
"""
import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import image_run  # noqa: E402
from server_probe import free_port  # noqa: E402

READY_MARK = "Storage:"


def time_to_ready(argv):
    """Seconds from exec to the banner's last line (printed once the port is bound), then a
    SIGTERM and the exit status."""
    started = time.monotonic()
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seen = []
    for line in process.stdout:
        seen.append(line)
        if READY_MARK in line:
            ready = time.monotonic() - started
            break
    else:
        raise SystemExit("the server exited before it was ready:\n" + "".join(seen))
    process.send_signal(signal.SIGTERM)
    process.stdout.read()
    if process.wait(timeout=30) != 0:
        raise SystemExit(f"exit status {process.returncode} after SIGTERM")
    return ready


def compressed_size(folder: Path) -> int:
    """The folder as a gzip-compressed tar (level 6), as a registry stores a layer."""
    with tempfile.TemporaryFile() as layer:
        with tarfile.open(fileobj=layer, mode="w:gz", compresslevel=6) as archive:
            archive.add(folder, arcname=".", filter=lambda info: None if info.name.startswith("./proc/") else info)
        return layer.tell()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("app", type=Path)
    parser.add_argument("--rootfs", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=9)
    options = parser.parse_args()
    app = options.app.resolve()
    binary = app / "deltasync"
    if os.geteuid() != 0 or not binary.exists():
        raise SystemExit("run as root, with APP a folder holding deltasync and schema.graphql")
    image_times, host_times = [], []
    for run in range(options.runs):
        image_data = image_run.new_data_folder()
        host_data = image_run.new_data_folder()
        try:
            # Alternating, so drift on a noisy machine falls on both.
            image_times.append(time_to_ready(image_run.command(
                image_run.server_arguments(free_port()), options.rootfs, app, image_data)))
            host_times.append(time_to_ready([
                str(binary), "serve", "--host", "0.0.0.0", "--data-dir", str(host_data), "--schema",
                str(app / "schema.graphql"), "--db", str(host_data / "deltasync.sqlite"), "--port", str(free_port())]))
        finally:
            shutil.rmtree(image_data, ignore_errors=True)
            shutil.rmtree(host_data, ignore_errors=True)
    ms = lambda values: f"{statistics.median(values) * 1000:.0f} ms (runs {min(values) * 1000:.0f}-{max(values) * 1000:.0f})"
    print(f"ready, started as the image starts it: median {ms(image_times)}")
    print(f"ready, the same binary started directly (baseline): median {ms(host_times)}")
    layer = int((options.rootfs / ".deltasync-layer-bytes").read_text())
    server = compressed_size(app)
    whole = compressed_size(options.rootfs) + server
    print(f"the layer docker/runtime.sh adds: {layer / 1e6:.1f} MB compressed")
    print(f"the server's layer ({app.name}): {server / 1e6:.1f} MB compressed")
    print(f"DeltaSync's layers together: {(layer + server) / 1e6:.1f} MB; the whole image with its Debian base: "
          f"{whole / 1e6:.1f} MB compressed")


if __name__ == "__main__":
    main()
