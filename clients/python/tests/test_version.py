"""The package's version is the project's: Sources/APNSMock/APNSMockVersion.swift is its one source."""

import importlib.util
import shutil

import apns_mock
from conftest import REPOSITORY


def load_project_version():
    spec = importlib.util.spec_from_file_location("project_version", REPOSITORY / "scripts" / "project_version.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_package_file_states_the_version_of_the_swift_source():
    versions = load_project_version()
    assert versions.mismatches(REPOSITORY) == []
    assert apns_mock.__version__ == versions.project_version(REPOSITORY)


def test_a_package_file_with_another_version_is_named(tmp_path):
    versions = load_project_version()
    for relative in [versions.SOURCE, *versions.PACKAGE_FILES]:
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPOSITORY / relative, tmp_path / relative)
    pyproject = tmp_path / "clients/python/pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace(f'version = "{apns_mock.__version__}"', 'version = "0.0.1"'))

    assert versions.mismatches(tmp_path) == [
        f"clients/python/pyproject.toml: version '0.0.1', but {versions.SOURCE} says '{apns_mock.__version__}'"]
