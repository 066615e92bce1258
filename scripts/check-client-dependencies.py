#!/usr/bin/env python3
"""What an app that adds this repository for the client resolves.

SwiftPM resolves a dependency's whole manifest, so the server's packages would come with the
client unless they stay behind the package's traits. This script makes a scratch app package
that depends on this checkout the way the README tells iOS apps to (`traits: []`, the client
products and the model generator plugin), resolves it, and fails when a pin outside the
client's set appears.

    scripts/check-client-dependencies.py            # resolve, list the pins, check them
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# What the client products and the generator link: the store (GRDB), SigV4 (swift-crypto and
# its swift-asn1), logging, and the GraphQL parser the generator reads schemas with (with its
# swift-collections).
ALLOWED = {"grdb.swift", "swift-crypto", "swift-asn1", "swift-log", "graphql", "swift-collections"}

MANIFEST = """\
// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "ScratchApp",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(name: "DeltaSync", path: "%s", traits: [])],
    targets: [
        .target(
            name: "ScratchApp",
            dependencies: [.product(name: "DeltaSyncClient", package: "DeltaSync")],
            plugins: [.plugin(name: "DeltaSyncModels", package: "DeltaSync")]
        ),
    ]
)
"""


def main():
    scratch = tempfile.mkdtemp(prefix="deltasync-scratch-app-")
    try:
        os.makedirs(os.path.join(scratch, "Sources", "ScratchApp"))
        with open(os.path.join(scratch, "Package.swift"), "w") as manifest:
            manifest.write(MANIFEST % ROOT)
        with open(os.path.join(scratch, "Sources", "ScratchApp", "App.swift"), "w") as source:
            source.write("import DeltaSyncClient\n")
        result = subprocess.run(["swift", "package", "resolve"], cwd=scratch, capture_output=True, text=True)
        if result.returncode != 0:
            print(result.stdout + result.stderr)
            print("the scratch app did not resolve", file=sys.stderr)
            return 1
        resolved = os.path.join(scratch, "Package.resolved")
        pins = []
        if os.path.exists(resolved):
            with open(resolved) as handle:
                pins = sorted(pin["identity"] for pin in json.load(handle)["pins"])
        extra = [pin for pin in pins if pin not in ALLOWED]
        print(f"an app using the client resolves {len(pins)} packages: {', '.join(pins)}")
        if extra:
            print(f"not the client's: {', '.join(extra)}: keep them behind a trait in Package.swift", file=sys.stderr)
            return 1
        return 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


sys.exit(main())
