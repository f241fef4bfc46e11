#!/usr/bin/env python3
"""The project's version, read from its one source, and the package files that must repeat it.

    scripts/project_version.py           prints the version (Sources/APNSMock/APNSMockVersion.swift)
    scripts/project_version.py --check   exits 1 naming each package file whose version differs

`APNSMockVersion.current` is what `apns-mock --version` prints and the git tag a release gets.
The client packages carry it too, because their registries read it from their own files:
clients/python/pyproject.toml (`version`), clients/python/src/apns_mock/__init__.py
(`__version__`) and clients/node/package.json (`version`). scripts/dist-python-wheel.py and
scripts/dist-npm.sh refuse to build when they differ; clients/python/tests/test_version.py and
clients/node/test/package.test.mjs fail then too. Python 3 standard library only.
"""

import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = "Sources/APNSMock/APNSMockVersion.swift"

_SWIFT = re.compile(r'static\s+let\s+current\s*=\s*"([^"]+)"')
_PYPROJECT = re.compile(r'^\[project\][^\[]*?^version\s*=\s*"([^"]+)"', re.MULTILINE | re.DOTALL)
_DUNDER = re.compile(r'^__version__\s*=\s*"([^"]+)"', re.MULTILINE)


def _read(root, relative):
    with open(os.path.join(root, relative), encoding="utf-8") as handle:
        return handle.read()


def project_version(root=ROOT):
    """`APNSMockVersion.current`, from the Swift source."""
    match = _SWIFT.search(_read(root, SOURCE))
    if not match:
        raise ValueError(f"{SOURCE}: no `static let current = \"…\"`")
    return match.group(1)


def _pattern_reader(pattern):
    def read(text):
        match = pattern.search(text)
        return match.group(1) if match else None

    return read


# Each package file that states the version, and how to read it (None when it states none).
PACKAGE_FILES = {
    "clients/python/pyproject.toml": _pattern_reader(_PYPROJECT),
    "clients/python/src/apns_mock/__init__.py": _pattern_reader(_DUNDER),
    "clients/node/package.json": lambda text: json.loads(text).get("version"),
}


def package_versions(root=ROOT):
    """{package file: the version it states} for every file of PACKAGE_FILES."""
    return {path: read(_read(root, path)) for path, read in PACKAGE_FILES.items()}


def mismatches(root=ROOT):
    """One line per package file whose version is not the project's; empty when all agree."""
    version = project_version(root)
    return [
        f"{path}: version {stated!r}, but {SOURCE} says {version!r}"
        for path, stated in package_versions(root).items()
        if stated != version
    ]


def main(argv):
    if argv[1:] == ["--check"]:
        problems = mismatches()
        for line in problems:
            print(line, file=sys.stderr)
        return 1 if problems else 0
    if argv[1:]:
        print("usage: scripts/project_version.py [--check]", file=sys.stderr)
        return 2
    print(project_version())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
