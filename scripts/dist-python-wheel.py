#!/usr/bin/env python3
"""Builds the Python package's platform wheel: clients/python with the apns-mock binary in it.

    scripts/dist-python-wheel.py --binary dist/apns-mock --out DIR [--no-build-isolation]

Writes DIR/apns_mock-VERSION-py3-none-manylinux_2_NN_ARCH.whl and prints its path. pip installs
the binary where it installs scripts (`apns_mock-VERSION.data/scripts/apns-mock`, mode 0755: the
environment's bin directory, on PATH in an activated venv), and `apns_mock.find_binary()` finds
it there without APNS_MOCK_BIN (as ruff's and uv's wheels carry their binaries).

- VERSION is the project's (Sources/APNSMock/APNSMockVersion.swift); the script refuses to build
  when clients/python or clients/node states another (scripts/project_version.py --check).
- NN is the highest GLIBC_2.x version the binary requires, read from its version-needs section
  (`readelf --version-info`, the list the dynamic loader checks at start), and at least 17;
  ARCH is the binary's ELF machine (x86_64 or aarch64). Libraries it needs besides glibc's are
  listed as a warning: a manylinux wheel may not rely on them (`auditwheel show WHEEL` judges).
- How: `pip wheel` builds the pure-Python wheel from a copy of clients/python (so setuptools
  reads pyproject.toml, the one declaration of the metadata, and writes nothing into the source
  tree); this script then writes the platform wheel from it: the same files, the binary added,
  WHEEL's Tag and Root-Is-Purelib changed, RECORD made anew with sha256 hashes. Entries are
  written in a fixed order with a fixed time (1980-01-01), so the same inputs give the same bytes.
  The sdist (`python -m build --sdist clients/python`) stays pure Python, without the binary.

Needs Python 3.9+, pip, and binutils' readelf. pip wheel fetches setuptools into an isolated
build environment; --no-build-isolation uses the running interpreter's setuptools (>=68) instead.
"""

import argparse
import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import project_version  # noqa: E402

ROOT = project_version.ROOT
PACKAGE_DIR = os.path.join(ROOT, "clients", "python")
DISTRIBUTION = "apns_mock"  # the wheel's name for the distribution apns-mock
BINARY_NAME = "apns-mock"
MINIMUM_GLIBC_MINOR = 17  # manylinux_2_17 (manylinux2014): what pip on any current Linux takes
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
ELF_MACHINES = {62: "x86_64", 183: "aarch64"}
# Libraries a manylinux wheel may rely on the system for (glibc's, and GCC's runtime), at the
# versions its policy allows; auditwheel knows the whole list and the versions.
MANYLINUX_LIBRARIES = re.compile(
    r"^(libc|libm|libpthread|libdl|librt|libutil|libresolv|libnsl|libgcc_s|libstdc\+\+|ld-linux[-\w]*)\.so\.[\d.]+$")


def fail(message):
    print(f"dist-python-wheel: {message}", file=sys.stderr)
    sys.exit(1)


def elf_architecture(path):
    """The wheel's architecture of an ELF executable, from its header's e_machine."""
    with open(path, "rb") as handle:
        header = handle.read(20)
    if header[:4] != b"\x7fELF":
        fail(f"{path} is not an ELF executable")
    if header[4] != 2:
        fail(f"{path} is a 32-bit ELF; the wheel is for a 64-bit Linux")
    machine = int.from_bytes(header[18:20], "little" if header[5] == 1 else "big")
    if machine not in ELF_MACHINES:
        fail(f"{path}: ELF machine {machine} is not one a manylinux wheel names here ({sorted(ELF_MACHINES.values())})")
    return ELF_MACHINES[machine]


def readelf(path, *options):
    try:
        return subprocess.run(["readelf", "--wide", *options, path], check=True, capture_output=True,
                              text=True).stdout
    except FileNotFoundError:
        fail("readelf (binutils) is needed to read the binary's glibc version")
    except subprocess.CalledProcessError as error:
        fail(f"readelf {' '.join(options)} {path}: {error.stderr.strip()}")


def required_versions(path):
    """{library: [version names]} from the binary's version-needs section (.gnu.version_r)."""
    needs = {}
    library = None
    for line in readelf(path, "--version-info").splitlines():
        file_match = re.search(r"\bFile: (\S+)", line)
        if file_match:
            library = file_match.group(1)
            needs.setdefault(library, [])
            continue
        name_match = re.search(r"\bName: (\S+)", line)
        if name_match and library is not None:
            needs[library].append(name_match.group(1))
    return needs


def needed_libraries(path):
    """The binary's DT_NEEDED libraries (empty for a static one)."""
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", readelf(path, "--dynamic"))


def glibc_minor(needs):
    """The highest GLIBC_2.x the binary requires (0 when it requires none: a static binary)."""
    minors = [int(match.group(1)) for names in needs.values() for name in names
              for match in [re.fullmatch(r"GLIBC_2\.(\d+)(?:\.\d+)?", name)] if match]
    return max(minors, default=0)


def build_pure_wheel(work, no_build_isolation):
    """pip wheel of a copy of clients/python; returns the pure wheel's path."""
    source = os.path.join(work, "source")
    shutil.copytree(PACKAGE_DIR, source, ignore=shutil.ignore_patterns(
        ".venv", "__pycache__", "build", "dist", "*.egg-info", ".pytest_cache", "tests", "examples"))
    wheels = os.path.join(work, "pure")
    command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps",
               "--wheel-dir", wheels, source]
    if no_build_isolation:
        command.insert(command.index("--no-deps"), "--no-build-isolation")
    subprocess.run(command, check=True)
    [built] = os.listdir(wheels)
    if not built.endswith("-py3-none-any.whl"):
        fail(f"pip wheel built {built}, not a pure-Python py3-none-any wheel")
    return os.path.join(wheels, built)


def record_hash(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")


def zip_entry(name, mode):
    info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
    info.external_attr = (0o100000 | mode) << 16  # a regular file with these permissions
    info.compress_type = zipfile.ZIP_DEFLATED
    info.create_system = 3  # Unix: unzip and pip read the mode from external_attr
    return info


def write_platform_wheel(pure, binary, version, tag, out):
    """The pure wheel's files, the binary in .data/scripts, WHEEL retagged, RECORD anew."""
    dist_info = f"{DISTRIBUTION}-{version}.dist-info"
    data_scripts = f"{DISTRIBUTION}-{version}.data/scripts/{BINARY_NAME}"
    with zipfile.ZipFile(pure) as source:
        files = {name: source.read(name) for name in source.namelist() if not name.endswith("/")}
    if f"{dist_info}/WHEEL" not in files:
        fail(f"{os.path.basename(pure)} has no {dist_info}/WHEEL: is clients/python's version {version}?")
    wheel_lines = [line for line in files[f"{dist_info}/WHEEL"].decode().splitlines()
                   if line and not line.startswith(("Tag:", "Root-Is-Purelib:", "Generator:"))]
    files[f"{dist_info}/WHEEL"] = "\n".join(
        wheel_lines[:1] + ["Generator: apns-mock scripts/dist-python-wheel.py", "Root-Is-Purelib: false",
                           f"Tag: {tag}"] + wheel_lines[1:]).encode() + b"\n"
    del files[f"{dist_info}/RECORD"]
    with open(binary, "rb") as handle:
        files[data_scripts] = handle.read()

    # The package first, then .data, then .dist-info with RECORD last (as the wheel spec advises).
    def order(name):
        return (name.startswith(dist_info), name.startswith(f"{DISTRIBUTION}-{version}.data/"), name)

    names = sorted(files, key=order)
    record = "".join(f"{name},{record_hash(files[name])},{len(files[name])}\n" for name in names)
    record += f"{dist_info}/RECORD,,\n"
    path = os.path.join(out, f"{DISTRIBUTION}-{version}-{tag}.whl")
    partial = path + ".partial"
    with zipfile.ZipFile(partial, "w") as wheel:
        for name in names:
            wheel.writestr(zip_entry(name, 0o755 if name == data_scripts else 0o644), files[name])
        wheel.writestr(zip_entry(f"{dist_info}/RECORD", 0o644), record)
    os.replace(partial, path)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="the apns-mock executable to carry (make release-static: dist/apns-mock)")
    parser.add_argument("--out", required=True, help="the directory to write the wheel into")
    parser.add_argument("--no-build-isolation", action="store_true",
                        help="build with this interpreter's setuptools instead of fetching it")
    arguments = parser.parse_args()

    mismatches = project_version.mismatches()
    if mismatches:
        fail("the packages' versions differ from the project's:\n  " + "\n  ".join(mismatches))
    version = project_version.project_version()
    binary = os.path.abspath(arguments.binary)
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        fail(f"{arguments.binary} is not an executable file")

    architecture = elf_architecture(binary)
    needs = required_versions(binary)
    required = glibc_minor(needs)
    minor = max(required, MINIMUM_GLIBC_MINOR)
    tag = f"py3-none-manylinux_2_{minor}_{architecture}"
    print(f"{binary}: {architecture}; the highest glibc version it requires (readelf --version-info): "
          f"{f'GLIBC_2.{required}' if required else 'none'}; tag {tag}", file=sys.stderr)
    outside = [library for library in needed_libraries(binary) if not MANYLINUX_LIBRARIES.match(library)]
    if outside:
        print(f"dist-python-wheel: warning: the binary needs libraries a manylinux wheel may not rely on the "
              f"system for (auditwheel show judges): {', '.join(outside)}", file=sys.stderr)

    os.makedirs(arguments.out, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="apns-mock-wheel-") as work:
        pure = build_pure_wheel(work, arguments.no_build_isolation)
        print(write_platform_wheel(pure, binary, version, tag, os.path.abspath(arguments.out)))


if __name__ == "__main__":
    main()
