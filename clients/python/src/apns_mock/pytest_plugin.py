"""The pytest plugin of apns_mock (registered through the ``pytest11`` entry point).

Fixtures:

- ``apns_mock`` (session): one server for the whole run — a :class:`~apns_mock.Mock` started from
  the binary :func:`~apns_mock.find_binary` finds (``$APNS_MOCK_BIN``, the one installed with the
  package, ``apns-mock`` on PATH), or the server at ``$APNS_MOCK_ADMIN_URL`` when it is
  set (a :class:`~apns_mock.Remote`). Under pytest-xdist every worker shares one server: the
  first worker that needs it starts it, the others read its addresses from a file in a directory
  the controller hands them, and the controller stops it when the run ends.
- ``apns`` (function): a :class:`~apns_mock.Scope` for the test — fresh tokens from
  ``apns.token()``, and every query, wait, fault rule and reset limited to them. Its fault rules,
  devices and channels are removed after the test, and its Web Push subscriptions
  (``apns.webpush_subscription()``) unsubscribed. ``apns.provider`` (also
  ``apns_mock.provider``) holds the session's provider credentials, which the server knows:
  ``key_path``, ``key_id``, ``team_id`` and ``token()`` (:class:`~apns_mock.ProviderCredentials`).

Environment: ``APNS_MOCK_BIN``, ``APNS_MOCK_ADMIN_URL``, ``APNS_MOCK_ADMIN_TOKEN`` (sent on admin
calls, and given to a started server as ``--admin-token``), ``APNS_MOCK_ARGS`` (more ``serve``
arguments, split as a shell would), ``APNS_MOCK_PROVIDER_KEY`` (a ``.p8`` file to use instead of
a generated key), ``APNS_MOCK_PROVIDER_KEY_ID``, ``APNS_MOCK_PROVIDER_TEAM_ID``. The last three
may also be ini options (``apns_mock_provider_key``, a path relative to the ini file, …); the
environment wins.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import tempfile
import time
from pathlib import Path
from typing import Any, Generator, Iterator, Optional

import httpx
import pytest

from ._client import Client
from ._errors import AdminError, MockStartError, WaitTimeout
from ._mock import Mock, Remote
from ._provider import KEY_ENV, KEY_ID_ENV, TEAM_ID_ENV, ProviderCredentials
from ._scope import Scope

_SHARED_KEY = "apns_mock_shared_dir"


class _Shared:
    """A server another pytest-xdist worker started: the same properties as :class:`Mock`."""

    def __init__(self, state: dict, token: Optional[str]) -> None:
        self.apns_url = state["apns_url"]
        self.admin_url = state["admin_url"]
        self.channels_url = state["channels_url"]
        self.webpush_url = state.get("webpush_url", "")
        self.ca_path = state["ca_path"]
        self.pid = state["pid"]
        self.client = Client(self.admin_url, token=token)
        self.provider = ProviderCredentials.from_file(**state["provider"])

    def stop(self) -> None:
        self.client.close()

    def __repr__(self) -> str:
        return f"apns_mock(shared, admin_url={self.admin_url!r})"


_PROVIDER_SETTINGS = (  # (Mock's argument, environment variable, ini option, is a path)
    ("provider_key", KEY_ENV, "apns_mock_provider_key", True),
    ("provider_key_id", KEY_ID_ENV, "apns_mock_provider_key_id", False),
    ("provider_team_id", TEAM_ID_ENV, "apns_mock_provider_team_id", False),
)


def pytest_addoption(parser: pytest.Parser) -> None:
    for _, variable, name, is_path in _PROVIDER_SETTINGS:
        kind = "a .p8 file, relative to the ini file" if is_path else "letters and digits"
        parser.addini(name, f"apns-mock provider credentials ({kind}); ${variable} wins over it", default="")


def _provider_settings(config: pytest.Config) -> dict:
    """The provider_key, provider_key_id and provider_team_id arguments: the environment, else the ini file."""
    settings = {}
    for argument, variable, name, is_path in _PROVIDER_SETTINGS:
        value = os.environ.get(variable) or config.getini(name) or None
        if value and is_path and not os.environ.get(variable):
            value = str((config.inipath.parent if config.inipath else config.rootpath) / value)
        settings[argument] = value
    return settings


def _server_args() -> list:
    return shlex.split(os.environ.get("APNS_MOCK_ARGS", ""))


def _shared_server(directory: Path, token: Optional[str], provider: dict) -> _Shared:
    import fcntl

    directory.mkdir(parents=True, exist_ok=True)
    state_file = directory / "server.json"
    with open(directory / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not state_file.exists():
                mock = Mock(args=_server_args(), admin_token=token, directory=directory / "server", **provider)
                mock.start()
                state = {"pid": mock.pid, **mock.addresses(), "provider": mock.provider.as_dict()}
                state_file.write_text(json.dumps(state))
            return _Shared(json.loads(state_file.read_text()), token)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _remote(admin_url: str, token: Optional[str], provider: dict) -> Remote:
    """The server APNS_MOCK_ADMIN_URL names, or a MockStartError that names the variable."""
    try:
        return Remote(admin_url, token=token, **provider)
    except httpx.TransportError as error:
        raise MockStartError(
            f"APNS_MOCK_ADMIN_URL is {admin_url}, but no apns-mock admin API answers there "
            f"({type(error).__name__}: {error}): start one (apns-mock serve), correct the URL, or unset "
            "APNS_MOCK_ADMIN_URL to let the plugin start a server of its own") from error
    except AdminError as error:
        raise MockStartError(
            f"APNS_MOCK_ADMIN_URL is {admin_url}, but what answers there is not the admin API: {error}") from error


@pytest.fixture(scope="session")
def apns_mock(request: pytest.FixtureRequest) -> Iterator[Any]:
    """One apns-mock server for the session: ``apns_url``, ``admin_url``, ``channels_url``,
    ``webpush_url``, ``ca_path``, ``client``, ``provider``."""
    token = os.environ.get("APNS_MOCK_ADMIN_TOKEN") or None
    admin_url = os.environ.get("APNS_MOCK_ADMIN_URL")
    provider = _provider_settings(request.config)
    if admin_url:
        server: Any = _remote(admin_url, token, provider)
    else:
        workerinput = getattr(request.config, "workerinput", None)
        shared = workerinput.get(_SHARED_KEY) if workerinput else None
        if shared:
            server = _shared_server(Path(shared), token, provider)
        else:
            server = Mock(args=_server_args(), admin_token=token, **provider).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def apns(apns_mock: Any) -> Iterator[Scope]:
    """This test's view of the server: ``apns.token()``, and queries, waits and faults limited to
    its tokens (see :class:`apns_mock.Scope`)."""
    scope = Scope(apns_mock.client, apns_url=apns_mock.apns_url, channels_url=apns_mock.channels_url,
                  ca_path=apns_mock.ca_path, provider=apns_mock.provider,
                  webpush_url=getattr(apns_mock, "webpush_url", ""))
    yield scope
    # Rules, devices, channels and Web Push subscriptions of this test must not act on anything
    # after it; its records stay
    # (the dashboard link of a failure shows them).
    scope.cleanup()


# -- pytest-xdist: one server for every worker -------------------------------------------------

@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Controller side: hands each worker the directory where the shared server is described."""
    config = node.config
    directory = getattr(config, "_apns_mock_shared_dir", None)
    if directory is None:
        directory = tempfile.mkdtemp(prefix="apns-mock-xdist-")
        config._apns_mock_shared_dir = directory
    node.workerinput[_SHARED_KEY] = directory


def pytest_unconfigure(config: pytest.Config) -> None:
    """Controller side: stops the server a worker started for the run."""
    directory = getattr(config, "_apns_mock_shared_dir", None)
    if directory is None:
        return
    state_file = Path(directory) / "server.json"
    if state_file.exists():
        pid = json.loads(state_file.read_text())["pid"]
        try:
            os.kill(pid, signal.SIGTERM)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                os.kill(pid, 0)
                if _zombie(pid):
                    return _remove(directory)
                time.sleep(0.05)
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    _remove(directory)


def _remove(directory: str) -> None:
    shutil.rmtree(directory, ignore_errors=True)


def _zombie(pid: int) -> bool:
    """Exited but not yet reaped (its parent, the worker that started it, is gone or busy)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return False


# -- a failed wait reads as the near misses, not a traceback into the library -------------------

@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if call.excinfo is not None and call.excinfo.errisinstance(WaitTimeout) and report.failed:
        entry = next((e for e in reversed(call.excinfo.traceback) if e.path == item.path), None)
        where = f"{item.path.name}:{entry.lineno + 1}: " if entry is not None else ""
        report.longrepr = f"{where}apns.wait {call.excinfo.value}"
    return report
