"""Which apns-mock binary Mock runs: binary=, then $APNS_MOCK_BIN, then the one installed with the
package (a wheel's), then PATH."""

import importlib.metadata
import os

import pytest

import apns_mock
from apns_mock import MockStartError, find_binary
from apns_mock import _mock


def fake_binary(directory):
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "apns-mock"
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return str(path)


@pytest.fixture
def binaries(tmp_path, monkeypatch):
    """One fake apns-mock per place looked in; the packaged one through packaged_binary()."""
    places = {name: fake_binary(tmp_path / name) for name in ("given", "environment", "packaged", "path")}
    monkeypatch.setenv("APNS_MOCK_BIN", places["environment"])
    monkeypatch.setattr(_mock, "packaged_binary", lambda: places["packaged"])
    monkeypatch.setenv("PATH", os.path.dirname(places["path"]))
    return places


def test_the_given_binary_comes_first(binaries):
    assert find_binary(binaries["given"]) == binaries["given"]


def test_then_APNS_MOCK_BIN(binaries):
    assert find_binary() == binaries["environment"]


def test_then_the_binary_installed_with_the_package(binaries, monkeypatch):
    monkeypatch.delenv("APNS_MOCK_BIN")
    assert find_binary() == binaries["packaged"]


def test_then_PATH(binaries, monkeypatch):
    monkeypatch.delenv("APNS_MOCK_BIN")
    monkeypatch.setattr(_mock, "packaged_binary", lambda: None)
    assert find_binary() == binaries["path"]
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(MockStartError, match="none installed with this package.*install the apns-mock wheel"):
        find_binary()


def test_the_binary_a_wheel_installed_is_found_through_the_distributions_record(tmp_path):
    # What pip leaves after `pip install --prefix PREFIX apns_mock-….whl`: the binary in PREFIX/bin,
    # listed in RECORD relative to site-packages.
    site = tmp_path / "lib" / "python3" / "site-packages"
    binary = fake_binary(tmp_path / "bin")
    record = site / "apns_mock-0.9.0.dist-info" / "RECORD"
    record.parent.mkdir(parents=True)
    (record.parent / "METADATA").write_text("Metadata-Version: 2.1\nName: apns-mock\nVersion: 0.9.0\n")
    record.write_text("apns_mock/__init__.py,,\n../../../bin/apns-mock,sha256=x,5\napns_mock-0.9.0.dist-info/RECORD,,\n")
    distribution = importlib.metadata.PathDistribution(record.parent)
    assert list(_mock.recorded_binaries(distribution)) == [binary]


def test_the_running_interpreters_scripts_directory_is_looked_in_when_the_record_lists_none(tmp_path, monkeypatch):
    binary = fake_binary(tmp_path / "scripts")
    monkeypatch.setattr(_mock.sysconfig, "get_path", lambda name, *a, **k: str(tmp_path / "scripts"))
    assert apns_mock.packaged_binary() == binary
    os.chmod(binary, 0o644)  # not executable: not a binary to run
    assert apns_mock.packaged_binary() is None
