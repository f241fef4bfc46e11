#!/usr/bin/env python3
"""Writes the Go module (clients/go) as a Go module proxy serves it, into a directory.

    scripts/dist-go-module.py --version 0.9.0 --out dist/goproxy

With GOPROXY=file:///…/dist/goproxy and GONOSUMDB=MODULE (the public checksum database has not
seen it; see clients/go/README.md), `go get MODULE@vVERSION` takes the module from there, offline, exactly as it would from proxy.golang.org once the release workflow tags
`clients/go/vVERSION`. The layout is the GOPROXY protocol's (go help goproxy):

    MODULE/@v/list              the versions, one per line
    MODULE/@v/vVERSION.info     {"Version": "vVERSION", "Time": "…"}
    MODULE/@v/vVERSION.mod      the go.mod
    MODULE/@v/vVERSION.zip      every file of the module under MODULE@vVERSION/

The zip holds the module's committed files (git ls-files), so what `make dist` publishes is what
the commit holds. Python 3 standard library only.
"""

import argparse
import json
import os
import subprocess
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULE_DIR = "clients/go"


def module_path():
    with open(os.path.join(ROOT, MODULE_DIR, "go.mod"), encoding="utf-8") as handle:
        for line in handle:
            parts = line.split()
            if len(parts) == 2 and parts[0] == "module":
                return parts[1]
    raise SystemExit(f"{MODULE_DIR}/go.mod names no module")


def escaped(path):
    """The proxy's case encoding: each upper-case letter is '!' and its lower case."""
    return "".join("!" + c.lower() if c.isupper() else c for c in path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", required=True, help="the release, without the v (0.9.0)")
    parser.add_argument("--out", required=True, help="the proxy directory to write")
    arguments = parser.parse_args()
    module = module_path()
    version = "v" + arguments.version
    files = subprocess.run(
        ["git", "ls-files", "--", MODULE_DIR], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.split()
    time = subprocess.run(
        ["git", "log", "-1", "--format=%cI"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()
    directory = os.path.join(arguments.out, escaped(module), "@v")
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "list"), "w", encoding="utf-8") as handle:
        handle.write(version + "\n")
    with open(os.path.join(directory, version + ".info"), "w", encoding="utf-8") as handle:
        json.dump({"Version": version, "Time": time}, handle)
    with open(os.path.join(ROOT, MODULE_DIR, "go.mod"), encoding="utf-8") as source:
        go_mod = source.read()
    with open(os.path.join(directory, version + ".mod"), "w", encoding="utf-8") as handle:
        handle.write(go_mod)
    with zipfile.ZipFile(os.path.join(directory, version + ".zip"), "w", zipfile.ZIP_DEFLATED) as archive:
        for relative in sorted(files):
            inside = relative[len(MODULE_DIR) + 1:]
            # A file in a nested module, or one go mod would not pack (.gitignore and the like), stays out.
            if inside.startswith(".") or "/." in inside:
                continue
            info = zipfile.ZipInfo(f"{module}@{version}/{inside}", date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(os.path.join(ROOT, relative), "rb") as source:
                archive.writestr(info, source.read())


if __name__ == "__main__":
    main()
