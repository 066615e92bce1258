#!/usr/bin/env python3
"""Prints, or checks, the target graph and dependency lists of docs/architecture.md.

    python3 scripts/architecture-targets.py          # print the mermaid block and each target's row
    python3 scripts/architecture-targets.py --check  # fail, naming each difference, when the doc disagrees

Reads `swift package dump-package` (as scripts/check-imports.py does). Every non-test target is a
node of the graph (an arrow to each target it declares; external products are left out) and a row
of the "Targets and products" table, whose first cell names it and its path and whose last cell
("Declared dependencies") lists its targets and products as the output below writes them. Paste
the printed graph over the doc's block; write the rows' other cells by hand.
"""
import json
import os
import re
import subprocess
import sys

PREFIX = "DeltaSync"
# Graph aliases that are not the name less its prefix, and how the table names those targets.
ALIAS = {"DeltaSyncGraphQL": "GraphQLLayer", "DeltaSyncCLI": "CLI", "deltasync-codegen": "Tool",
         "DeltaSyncModels": "Plugin"}
TABLE_NAME = {"DeltaSyncGraphQL": "GraphQL layer"}
PLATFORMS = {"linux": "Linux", "macos": "macOS", "ios": "iOS", "tvos": "tvOS", "watchos": "watchOS",
             "windows": "Windows", "android": "Android"}


def short(name):
    return name[len(PREFIX):] if name.startswith(PREFIX) and name != PREFIX else name


def alias(name):
    return ALIAS.get(name, short(name))


def load():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    package = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=root, check=True,
                                        capture_output=True, text=True).stdout)
    targets = [t for t in package["targets"] if t["type"] != "test"]
    names = {t["name"] for t in package["targets"]}
    products = {}
    for product in package["products"]:
        for target in product["targets"]:
            products.setdefault(target, []).append((product["name"], next(iter(product["type"]))))
    rows = {}
    for target in targets:
        internal, cells = [], []
        for dependency in target["dependencies"]:
            kind, value = next(iter(dependency.items()))
            name, condition = value[0], value[-1]
            if kind in ("byName", "target") and name in names:
                internal.append(name)
                cell = TABLE_NAME.get(name, short(name))
            else:
                cell = name
            if isinstance(condition, dict) and condition.get("platformNames"):
                cell += " (" + ", ".join(PLATFORMS.get(p, p) for p in condition["platformNames"]) + ")"
            cells.append(cell)
        rows[target["name"]] = {"path": target.get("path") or f"Sources/{target['name']}", "internal": internal,
                                "cells": cells, "type": target["type"], "products": products.get(target["name"], [])}
    return rows


def label(name, row):
    if row["type"] == "plugin":
        text = f"{name} (plugin)"
    else:
        other = [p for p, kind in row["products"] if kind == "executable" and p != name]
        text = f"{name} ({other[0]})" if other else name
    if text == alias(name):
        return text
    return f'"{text}"' if " " in text else text


def graph(rows):
    """The mermaid block's lines, each target after the targets it declares."""
    order, seen = [], set()

    def visit(name):
        if name not in seen:
            seen.add(name)
            for dependency in rows[name]["internal"]:
                visit(dependency)
            order.append(name)
    for name in rows:
        visit(name)
    lines = ["```mermaid", "graph TD"]
    for name in order:
        node = alias(name) + ("" if label(name, rows[name]) == alias(name) else f"[{label(name, rows[name])}]")
        arrows = " & ".join(alias(d) for d in rows[name]["internal"])
        lines.append(f"  {node} --> {arrows}" if arrows else f"  {node}")
    return lines + ["```"]


def nodes(lines):
    """{alias: (label, {aliases it points to})} of mermaid lines `Alias[Label] --> A & B`."""
    found = {}
    for line in lines:
        match = re.match(r"\s*(\S+?)(?:\[([^\]]*)\])?(?:\s*-->\s*(.*))?\s*$", line)
        if match and line.strip():
            found[match.group(1)] = (match.group(2) or match.group(1),
                                     {a.strip() for a in (match.group(3) or "").split("&") if a.strip()})
    return found


def section(doc, title):
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## )", doc, re.S | re.M)
    return match.group(1) if match else ""


def check(rows):
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "architecture.md")
    with open(path, encoding="utf-8") as file:
        text = section(file.read(), "Targets and products")
    problems = []
    block = re.search(r"^```mermaid\n(.*?)^```$", text, re.S | re.M)
    documented = nodes(block.group(1).splitlines()[1:] if block else [])
    expected = nodes(graph(rows)[2:-1])
    for node in sorted(expected.keys() - documented.keys()):
        problems.append(f"graph: no node {node}")
    for node in sorted(documented.keys() - expected.keys()):
        problems.append(f"graph: node {node} is not a target of Package.swift")
    for node in sorted(expected.keys() & documented.keys()):
        if expected[node][0] != documented[node][0]:
            problems.append(f"graph: {node} is labelled {documented[node][0]}, not {expected[node][0]}")
        for missing in sorted(expected[node][1] - documented[node][1]):
            problems.append(f"graph: no arrow {node} --> {missing}")
        for extra in sorted(documented[node][1] - expected[node][1]):
            problems.append(f"graph: arrow {node} --> {extra}, not declared in Package.swift")
    seen = set()
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        names = re.findall(r"`([^`]+)`", cells[0]) if line.startswith("| `") else []
        if not names:
            continue
        name, doc_path = names[0], (names[1] if len(names) > 1 else None)
        seen.add(name)
        if name not in rows:
            problems.append(f"table: {name} is not a target of Package.swift")
            continue
        if doc_path != rows[name]["path"]:
            problems.append(f"table: {name}'s path is {rows[name]['path']}, not {doc_path}")
        listed = [] if cells[-1] == "none" else [c.strip() for c in cells[-1].split(",")]
        for missing in [c for c in rows[name]["cells"] if c not in listed]:
            problems.append(f"table: {name} declares {missing}, not in its Declared dependencies")
        for extra in [c for c in listed if c not in rows[name]["cells"]]:
            problems.append(f"table: {name} does not declare {extra}, listed in its Declared dependencies")
    for name in rows:
        if name not in seen:
            problems.append(f"table: no row for target {name}")
    return problems


def main():
    rows = load()
    if "--check" in sys.argv[1:]:
        problems = check(rows)
        print("\n".join(problems) if problems else "docs/architecture.md's targets match Package.swift")
        sys.exit(1 if problems else 0)
    print("\n".join(graph(rows)) + "\n")
    for name, row in rows.items():
        print(f"`{name}` (`{row['path']}`) | {', '.join(row['cells']) or 'none'}")


if __name__ == "__main__":
    main()
