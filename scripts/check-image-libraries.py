#!/usr/bin/env python3
"""Lists the shared libraries a built `deltasync` loads and the Debian package that provides each,
and fails when the image would not have one.

With --rootfs (the image's runtime root filesystem, scripts/image-rootfs.sh), every library the
binary needs, and every library those need, must be in that tree: found beside the binary
(RUNPATH $ORIGIN, debug builds) or in the tree's library folders, and owned by a package its dpkg
database lists. Without it, the host's packages are named and each must be one docker/runtime.sh
installs or one every Debian has (Priority: required).

Prints `SONAME<TAB>PACKAGE` lines (release.sh keeps them as the artifact's NEEDED file).

Usage: scripts/check-image-libraries.py BINARY [--rootfs DIR]
"""
import argparse
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIBRARY_FOLDERS = ("lib/{triplet}", "usr/lib/{triplet}", "lib", "usr/lib", "usr/local/lib")


def dynamic_section(path):
    """The ELF file's NEEDED sonames and RUNPATH/RPATH folders (readelf -d)."""
    result = subprocess.run(["readelf", "-d", path], capture_output=True, text=True)
    if result.returncode != 0:
        raise ValueError(f"{path}: not an ELF file readelf can read ({result.stderr.strip()})")
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", result.stdout)
    paths = re.findall(r"\((?:RUNPATH|RPATH)\)\s+Library (?:runpath|rpath): \[([^\]]+)\]", result.stdout)
    return needed, [folder for entry in paths for folder in entry.split(":")]


def triplet():
    machine = os.uname().machine
    return {"x86_64": "x86_64-linux-gnu", "aarch64": "aarch64-linux-gnu"}.get(machine, f"{machine}-linux-gnu")


def dpkg_owners(rootfs):
    """Every path the tree's dpkg database lists, with its package; /lib and /usr/lib are one
    folder on a merged-/usr Debian, so both spellings map."""
    owners = {}
    for listing in glob.glob(os.path.join(rootfs, "var/lib/dpkg/info/*.list")):
        package = os.path.basename(listing)[:-len(".list")].split(":")[0]
        with open(listing, encoding="utf-8", errors="replace") as file:
            for line in file:
                path = line.strip()
                owners[path] = package
                if path.startswith("/lib/"):
                    owners["/usr" + path] = package
                elif path.startswith("/usr/lib/"):
                    owners[path[len("/usr"):]] = package
    return owners


def resolve_in_tree(binary, rootfs):
    """(soname, package or None, path) for the binary's libraries, transitively, inside rootfs."""
    folders = [folder.format(triplet=triplet()) for folder in LIBRARY_FOLDERS]
    owners = dpkg_owners(rootfs)
    found, queue, seen = [], [(binary, None)], set()
    while queue:
        path, _ = queue.pop(0)
        needed, runpath = dynamic_section(path)
        beside = [os.path.dirname(path)] if any("$ORIGIN" in entry for entry in runpath) else []
        for soname in needed:
            if soname in seen:
                continue
            seen.add(soname)
            candidates = [os.path.join(folder, soname) for folder in beside]
            candidates += [os.path.join(rootfs, folder, soname) for folder in folders]
            hit = next((candidate for candidate in candidates if os.path.exists(candidate)), None)
            if hit is None:
                found.append((soname, None, None))
                continue
            inside = "/" + os.path.relpath(hit, rootfs) if hit.startswith(os.path.abspath(rootfs) + os.sep) else None
            package = owners.get(inside) if inside else "(beside the binary)"
            found.append((soname, package, hit))
            queue.append((os.path.realpath(hit), soname))
    return found


def resolve_on_host(binary):
    """(soname, package or None, path) for the binary's direct needs, as the host resolves them."""
    result = subprocess.run(["ldd", binary], capture_output=True, text=True)
    found = []
    needed, runpath = dynamic_section(binary)
    for soname in needed:
        beside = os.path.join(os.path.dirname(binary), soname)
        if any("$ORIGIN" in entry for entry in runpath) and os.path.exists(beside):
            # Shipped with the binary (a debug build's Swift libraries), whatever the host loads.
            found.append((soname, "(beside the binary)", beside))
            continue
        # `soname => /path (0x...)`, or for the dynamic loader `/path/soname (0x...)`.
        match = re.search(rf"^\s*{re.escape(soname)} => (/\S+)|^\s*(/\S*/{re.escape(soname)}) \(", result.stdout, re.MULTILINE)
        path = (match.group(1) or match.group(2)) if match else None
        package = None
        if path:
            owner = subprocess.run(["dpkg", "-S", os.path.realpath(path)], capture_output=True, text=True)
            if owner.returncode != 0:
                owner = subprocess.run(["dpkg", "-S", path], capture_output=True, text=True)
            package = owner.stdout.split(":")[0] if owner.returncode == 0 else None
            if package is None and os.path.dirname(os.path.realpath(path)) == os.path.dirname(os.path.realpath(binary)):
                package = "(beside the binary)"
        found.append((soname, package, path))
    return found


def base_packages():
    """The host's Essential packages and everything they depend on: what every Debian image has
    before docker/runtime.sh installs anything."""
    result = subprocess.run(["dpkg-query", "-W", "-f=${Package}\t${Essential}\t${Pre-Depends}, ${Depends}\n"],
                            capture_output=True, text=True)
    depends, essential = {}, []
    for line in result.stdout.splitlines():
        name, is_essential, relations = (line.split("\t") + ["", ""])[:3]
        depends[name] = [re.split(r"[\s:(]", alternative.strip())[0]
                         for relation in relations.split(",") for alternative in relation.split("|")[:1]
                         if alternative.strip()]
        if is_essential == "yes":
            essential.append(name)
    base, queue = set(), list(essential)
    while queue:
        name = queue.pop()
        if name not in base:
            base.add(name)
            queue += depends.get(name, [])
    return base


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--rootfs")
    options = parser.parse_args()
    runtime_packages = set(subprocess.run(["sh", os.path.join(ROOT, "docker", "runtime.sh"), "packages"],
                                          capture_output=True, text=True, check=True).stdout.split())
    try:
        found = resolve_in_tree(options.binary, options.rootfs) if options.rootfs else resolve_on_host(options.binary)
    except ValueError as error:
        raise SystemExit(f"check-image-libraries.py: {error}")
    failures = []
    base = set() if options.rootfs else base_packages()
    for soname, package, path in found:
        if path is None:
            where = f"the image's root filesystem {options.rootfs}" if options.rootfs else "this machine"
            failures.append(f"{soname}: not found in {where}; add its package to docker/runtime.sh's PACKAGES")
        elif package is None:
            failures.append(f"{soname}: {path} belongs to no package; the image would not have it")
        elif not options.rootfs and package not in runtime_packages | base and not package.startswith("("):
            failures.append(f"{soname}: from {package}, which docker/runtime.sh does not install; add it to PACKAGES")
    if failures:
        print("\n".join(failures), file=sys.stderr)
        sys.exit(1)
    where = "the image's root filesystem" if options.rootfs else "this machine"
    print(f"# The shared libraries deltasync loads and, in {where}, the package of each")
    for soname, package, _ in found:
        print(f"{soname}\t{package}")


if __name__ == "__main__":
    main()
