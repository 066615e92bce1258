#!/usr/bin/env python3
"""Fails when a target imports a module it does not declare in Package.swift, or declares one
its layer must not use.

SwiftPM builds such an import whenever the module is reachable through another dependency, and
`--explicit-target-dependency-import-check` only reports targets of this package; this check holds
every target to its own list, so moving a dependency never breaks a build elsewhere. `LAYERS`
keeps the lines docs/architecture.md draws: the store contract links no database library and no
HTTP, a store speaks neither HTTP nor GraphQL, the realtime layer reads no GraphQL syntax.
"""
import glob
import json
import os
import re
import subprocess
import sys

# Modules of the toolchain and the platforms, never declared.
SYSTEM = {"Foundation", "FoundationEssentials", "Testing", "XCTest", "Dispatch", "Glibc", "Musl", "Darwin", "os",
          "Synchronization", "_Concurrency", "PackagePlugin", "SQLite3", "Observation", "Combine", "SwiftUI", "Network", "XcodeProjectPlugin",
          "FoundationNetworking"}
HTTP = {"Hummingbird", "HummingbirdCore", "HummingbirdTLS", "HummingbirdWebSocket", "HummingbirdWSClient",
        "HummingbirdTesting", "HTTPTypes", "NIOHTTP1", "AsyncHTTPClient"}
DATABASES = {"GRDB", "GRDBSQLite", "DeltaSyncSQLite", "DeltaSyncSQLiteConfig", "PostgresNIO"}
# Modules a target must not declare (and so cannot import), with the reason a failure shows.
LAYERS = {
    "DeltaSyncStorage": (DATABASES | HTTP | {"GraphQL"},
                         "the store contract: each store is a target of its own (DeltaSyncSQLiteStore, DeltaSyncPostgres)"),
    "DeltaSyncSQLiteStore": (HTTP | {"GraphQL"}, "a store speaks neither HTTP nor GraphQL"),
    "DeltaSyncPostgres": (HTTP | {"GraphQL"}, "a store speaks neither HTTP nor GraphQL"),
    "DeltaSyncRealtime": ({"GraphQL"}, "a start's subscription comes from DeltaSyncGraphQL as a SubscriptionPlan"),
}
IMPORT = re.compile(r"\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|typealias)\s+)?(\w+)")

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
package = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=root, check=True,
                                    capture_output=True, text=True).stdout)
failures = []
for target in package["targets"]:
    declared = {target["name"]}
    for dependency in target["dependencies"]:
        for kind in ("byName", "product", "target"):
            if kind in dependency:
                declared.add(dependency[kind][0])
    forbidden, reason = LAYERS.get(target["name"], (set(), ""))
    for module in sorted(declared & forbidden):
        failures.append(f"Package.swift: {target['name']} declares {module}: {reason}")
    path = os.path.join(root, target.get("path") or os.path.join("Sources", target["name"]))
    for source in sorted(glob.glob(os.path.join(path, "**", "*.swift"), recursive=True)):
        with open(source, encoding="utf-8") as lines:
            # Inside a multi-line string literal (a test's expected generated code), an import
            # line is text, not an import.
            in_string = False
            for number, line in enumerate(lines, 1):
                match = None if in_string else IMPORT.match(line)
                if line.count('"""') % 2 == 1:
                    in_string = not in_string
                if match and match.group(1) not in declared | SYSTEM:
                    failures.append(f"{os.path.relpath(source, root)}:{number}: {target['name']} imports "
                                    f"{match.group(1)} without declaring it in Package.swift")
print("\n".join(failures) if failures else "every import is declared in Package.swift")
sys.exit(1 if failures else 0)
