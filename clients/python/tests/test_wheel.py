"""scripts/dist-python-wheel.py: the platform wheel carries the binary where pip puts scripts, and
the installed package runs it without APNS_MOCK_BIN.

A small dynamically linked ELF (``true``) stands in for apns-mock: the tag, the RECORD and the
lookup do not depend on what the binary does (the README's "Installing from the wheel" runs a
real one)."""

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile

import pytest

import apns_mock
from conftest import REPOSITORY

VERSION = apns_mock.__version__


def highest_glibc_by_objdump(binary):
    """The highest GLIBC_2.x among the binary's dynamic symbols' versions (objdump -T): a second
    reading of what the script reads from the version-needs section."""
    symbols = subprocess.run(["objdump", "-T", binary], check=True, capture_output=True, text=True).stdout
    return max(int(minor) for minor in re.findall(r"\bGLIBC_2\.(\d+)", symbols))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    binary = shutil.which("true")
    if not binary or sys.platform != "linux" or not shutil.which("readelf") or not shutil.which("objdump"):
        pytest.skip("needs Linux, binutils and a dynamically linked `true`")
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, str(REPOSITORY / "scripts" / "dist-python-wheel.py"), "--binary", binary,
                            "--out", str(out)], check=True, capture_output=True, text=True)
    path = built.stdout.strip()
    return {"path": path, "binary": binary, "log": built.stderr}


def test_the_wheel_is_tagged_with_the_highest_glibc_the_binary_requires(wheel):
    minor = max(17, highest_glibc_by_objdump(wheel["binary"]))
    machine = {"x86_64": "x86_64", "aarch64": "aarch64"}[os.uname().machine]
    assert os.path.basename(wheel["path"]) == f"apns_mock-{VERSION}-py3-none-manylinux_2_{minor}_{machine}.whl"
    with zipfile.ZipFile(wheel["path"]) as archive:
        lines = archive.read(f"apns_mock-{VERSION}.dist-info/WHEEL").decode().splitlines()
    assert f"Tag: py3-none-manylinux_2_{minor}_{machine}" in lines and "Root-Is-Purelib: false" in lines


def test_the_record_hashes_every_file_and_the_binary_is_executable(wheel):
    with zipfile.ZipFile(wheel["path"]) as archive:
        names = archive.namelist()
        rows = [line.split(",") for line in archive.read(f"apns_mock-{VERSION}.dist-info/RECORD").decode().splitlines()]
        assert sorted(name for name, _, _ in rows) == sorted(names)
        for name, digest, size in rows:
            if name.endswith("/RECORD"):
                assert (digest, size) == ("", "")
                continue
            data = archive.read(name)
            assert digest == "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert int(size) == len(data)
        binary = archive.getinfo(f"apns_mock-{VERSION}.data/scripts/apns-mock")
        assert binary.external_attr >> 16 == 0o100755
        assert archive.read(binary.filename) == open(wheel["binary"], "rb").read()
    assert names[-1] == f"apns_mock-{VERSION}.dist-info/RECORD"


def test_pip_installs_the_binary_executable_and_the_package_runs_it_without_APNS_MOCK_BIN(wheel, tmp_path):
    prefix = tmp_path / "prefix"
    # --ignore-installed: without it pip would first uninstall the apns-mock these tests run from.
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
                    "--no-index", "--ignore-installed", "--prefix", str(prefix), wheel["path"]], check=True)
    installed = prefix / "bin" / "apns-mock"
    assert installed.stat().st_mode & 0o777 == 0o777 & ~_umask() | 0o111
    purelib = sysconfig.get_path("platlib", vars={"base": str(prefix), "platbase": str(prefix)})
    environment = {key: value for key, value in os.environ.items() if key != "APNS_MOCK_BIN"}
    environment.update(PYTHONPATH=purelib, PATH="/usr/bin:/bin")
    found = subprocess.run([sys.executable, "-c", "import apns_mock; print(apns_mock.__file__); "
                            "print(apns_mock.find_binary())"], env=environment, check=True, capture_output=True,
                           text=True).stdout.splitlines()
    assert found == [os.path.join(purelib, "apns_mock", "__init__.py"), str(installed)]


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask
