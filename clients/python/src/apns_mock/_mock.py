"""Run the apns-mock binary on free ports for a test session."""

from __future__ import annotations

import importlib.metadata
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sysconfig
import tempfile
import time
from typing import Any, Dict, Iterator, Mapping, Optional, Sequence, Union

import httpx

from ._client import Client
from ._errors import AdminError, MockStartError
from ._provider import ProviderCredentials

READY_LINE = re.compile(r"^apns-mock ready apns=(\S+) admin=(\S+)(?: channels=(\S+))?(?: webpush=(\S+))?",
                        re.MULTILINE)


BINARY_NAME = "apns-mock"
DISTRIBUTION_NAME = "apns-mock"


def find_binary(binary: Union[str, os.PathLike, None] = None) -> str:
    """The apns-mock binary: ``binary`` if given, else ``$APNS_MOCK_BIN``, else the one installed
    with this package (:func:`packaged_binary`: the wheel carries it, the sdist does not), else
    ``apns-mock`` on PATH."""
    if binary is not None:
        name, where = os.fspath(binary), "given"
    elif os.environ.get("APNS_MOCK_BIN"):
        name, where = os.environ["APNS_MOCK_BIN"], "$APNS_MOCK_BIN"
    else:
        packaged = packaged_binary()
        if packaged:
            return packaged
        name, where = BINARY_NAME, "PATH; none installed with this package"
    found = shutil.which(name)
    if not found:
        raise MockStartError(
            f"apns-mock not found ({name!r}, from {where}): pass binary=, set APNS_MOCK_BIN, install the "
            "apns-mock wheel that carries the binary, or put apns-mock on PATH"
        )
    return found


def packaged_binary() -> Optional[str]:
    """The apns-mock binary installed with this package, or None.

    A wheel of apns-mock carries the binary as ``apns_mock-VERSION.data/scripts/apns-mock``, which
    pip installs into the scripts directory of the scheme it installs to (``venv/bin``,
    ``~/.local/bin``, ``PREFIX/bin``, ``TARGET/bin``) and lists in the distribution's ``RECORD``.
    Looked for there first (the installation that holds this module), then in the running
    interpreter's scripts directory (``sysconfig.get_path("scripts")``).
    """
    for candidate in _packaged_candidates():
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def _packaged_candidates() -> Iterator[str]:
    try:
        distribution = importlib.metadata.distribution(DISTRIBUTION_NAME)
    except importlib.metadata.PackageNotFoundError:
        distribution = None
    if distribution is not None and _holds_this_module(distribution):
        yield from recorded_binaries(distribution)
    scripts = sysconfig.get_path("scripts")
    if scripts:
        yield os.path.join(scripts, BINARY_NAME)


def recorded_binaries(distribution: importlib.metadata.Distribution) -> Iterator[str]:
    """The files named apns-mock that an installed distribution's ``RECORD`` lists, as paths."""
    for file in distribution.files or ():
        if file.name == BINARY_NAME:
            yield os.path.normpath(os.fspath(distribution.locate_file(file)))


def _holds_this_module(distribution: importlib.metadata.Distribution) -> bool:
    """Whether ``distribution`` is the installation this module was imported from (and not another
    copy of the package further along ``sys.path``, or an editable install's metadata)."""
    installed = pathlib.Path(os.fspath(distribution.locate_file("apns_mock/__init__.py")))
    try:
        return installed.exists() and installed.samefile(pathlib.Path(__file__).with_name("__init__.py"))
    except OSError:
        return False


class Mock:
    """An apns-mock process on free ports, started in a temporary directory of its own.

    ``Mock(binary=None, args=())`` runs ``apns-mock serve --port 0 --admin-port 0 *args`` in a new
    temporary directory with its own ``XDG_STATE_HOME`` (so the development CA it generates is
    this run's), waits for its ready line and fetches the CA from ``GET /v1/ca.pem`` into
    ``ca_path``. ``admin_token`` adds ``--admin-token`` and makes ``client`` send it.

    As a context manager it starts on entry and stops on exit (SIGTERM, then waits; SIGKILL after
    ``stop_timeout`` seconds). :meth:`start` raises :class:`MockStartError` with the process's
    stderr when it exits or prints no ready line within ``start_timeout`` seconds.

    ``provider`` holds provider credentials the server knows (:class:`ProviderCredentials`:
    ``key_path``, ``key_id``, ``team_id``, ``token()``): the ``.p8`` file ``provider_key`` (else
    ``$APNS_MOCK_PROVIDER_KEY``) with ``provider_key_id`` and ``provider_team_id`` (else
    ``$APNS_MOCK_PROVIDER_KEY_ID``, ``$APNS_MOCK_PROVIDER_TEAM_ID``), or a key generated for this
    mock. The server is started with it in an expectation file's ``setup:``
    (``--expectations``), so it knows the key from the start and again after ``POST /v1/reset``;
    a generated key's file is written into the mock's directory at start.
    """

    def __init__(
        self,
        binary: Union[str, os.PathLike, None] = None,
        args: Sequence[str] = (),
        *,
        admin_token: Optional[str] = None,
        env: Optional[Mapping[str, str]] = None,
        start_timeout: float = 30.0,
        stop_timeout: float = 10.0,
        directory: Union[str, os.PathLike, None] = None,
        provider_key: Union[str, os.PathLike, None] = None,
        provider_key_id: Optional[str] = None,
        provider_team_id: Optional[str] = None,
    ) -> None:
        self.binary = find_binary(binary)
        self.provider = ProviderCredentials.from_settings(provider_key, provider_key_id, provider_team_id)
        self.args = list(args)
        self.admin_token = admin_token
        self.env = dict(env or {})
        self.start_timeout = start_timeout
        self.stop_timeout = stop_timeout
        self._given_directory = directory
        self.directory: Optional[pathlib.Path] = None
        self.process: Optional[subprocess.Popen] = None
        self.apns_url = ""
        self.admin_url = ""
        self.channels_url = ""
        #: The Web Push listener, ``https://127.0.0.1:<port>`` (``webpush=`` of the ready line):
        #: Web Push subscriptions' endpoints start with it.
        self.webpush_url = ""
        self.ca_path = ""
        self._client: Optional[Client] = None
        self._owns_directory = False

    @property
    def client(self) -> Client:
        """The admin client of this server."""
        if self._client is None:
            raise RuntimeError("the mock is not running: call start() or use it as a context manager")
        return self._client

    @property
    def pid(self) -> Optional[int]:
        return self.process.pid if self.process else None

    def start(self) -> "Mock":
        if self.process is not None:
            return self
        if self._given_directory is not None:
            self.directory = pathlib.Path(self._given_directory)
            self.directory.mkdir(parents=True, exist_ok=True)
        else:
            self.directory = pathlib.Path(tempfile.mkdtemp(prefix="apns-mock-"))
            self._owns_directory = True
        state = self.directory / "state"
        state.mkdir(exist_ok=True)
        # The server runs in this directory; relative paths in args mean the caller's (APNS_MOCK_ARGS="--config x.yaml").
        env = {**os.environ, "XDG_STATE_HOME": str(state), "APNS_MOCK_BASE_DIRECTORY": os.getcwd(), **self.env}
        provider_setup = self._write_provider_setup(self.directory / "provider")
        command = [self.binary, "serve", "--port", "0", "--admin-port", "0", "--expectations", provider_setup,
                   *self.args]
        if self.admin_token:
            command += ["--admin-token", self.admin_token]
        # stdout and stderr go to files, not pipes: nothing has to keep reading them, and the
        # server outlives the reader if a pytest-xdist worker that started it exits first.
        stdout_path, stderr_path = self.directory / "stdout.log", self.directory / "stderr.log"
        with open(stdout_path, "wb") as stdout, open(stderr_path, "wb") as stderr:
            self.process = subprocess.Popen(
                command, cwd=self.directory, env=env, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
                start_new_session=True,
            )
        deadline = time.monotonic() + self.start_timeout
        while True:
            match = READY_LINE.search(stdout_path.read_text(errors="replace"))
            if match:
                self.apns_url, self.admin_url = match.group(1), match.group(2)
                self.channels_url = match.group(3) or ""
                self.webpush_url = match.group(4) or ""
                break
            status = self.process.poll()
            if status is not None:
                self._fail(f"apns-mock exited with status {status} before it was ready ({' '.join(command)})")
            if time.monotonic() > deadline:
                self._stop_process()
                self._fail(f"apns-mock printed no ready line within {self.start_timeout:g} s ({' '.join(command)})")
            time.sleep(0.02)
        self._client = Client(self.admin_url, token=self.admin_token)
        try:
            ca = self._client.ca_pem()
        except Exception as error:  # a server given certificate files has no CA to give
            self.ca_path = ""
            self.ca_error = error
        else:
            path = self.directory / "ca.pem"
            path.write_text(ca)
            self.ca_path = str(path)
        return self

    def _write_provider_setup(self, directory: pathlib.Path) -> str:
        """Writes a generated provider key and the setup file registering it; returns its path."""
        directory.mkdir(exist_ok=True)
        self.provider.write(directory)
        path = directory / "provider-key.yaml"
        path.write_text(json.dumps(self.provider.setup_document(), indent=2) + "\n")  # JSON is YAML
        return str(path)

    def _fail(self, message: str) -> None:
        assert self.directory is not None
        stderr = (self.directory / "stderr.log").read_text(errors="replace")
        self.process = None
        self._cleanup()
        raise MockStartError(message, stderr)

    @property
    def stderr(self) -> str:
        """What the server wrote to its standard error so far."""
        if self.directory is None:
            return ""
        try:
            return (self.directory / "stderr.log").read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def _stop_process(self) -> Optional[int]:
        process = self.process
        if process is None:
            return None
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=self.stop_timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        return process.returncode

    def stop(self) -> Optional[int]:
        """SIGTERM, wait for the exit (SIGKILL after ``stop_timeout``); returns the exit status."""
        status = self._stop_process()
        self.process = None
        if self._client is not None:
            self._client.close()
            self._client = None
        self._cleanup()
        return status

    def _cleanup(self) -> None:
        if self._owns_directory and self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self) -> "Mock":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"apns_mock.Mock(apns_url={self.apns_url!r}, admin_url={self.admin_url!r})"

    def addresses(self) -> Dict[str, str]:
        return {"apns_url": self.apns_url, "admin_url": self.admin_url, "channels_url": self.channels_url,
                "webpush_url": self.webpush_url, "ca_path": self.ca_path}


def _reachable(url: str, host: str) -> str:
    """``url`` with a wildcard bind address (``0.0.0.0``, ``::``) replaced by ``host``."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.hostname in ("0.0.0.0", "::", "[::]"):
        port = f":{parts.port}" if parts.port else ""
        shown = f"[{host}]" if ":" in host else host
        return urlunsplit((parts.scheme, shown + port, parts.path, parts.query, parts.fragment))
    return url


class Remote:
    """A server started elsewhere (``APNS_MOCK_ADMIN_URL``), known by its admin URL only.

    Its APNs, channel and Web Push addresses come from ``GET /v1/info`` (a wildcard bind address replaced by
    the admin URL's host) and its CA from ``GET /v1/ca.pem``, written to a temporary file at
    ``ca_path``. The same properties as :class:`Mock`; :meth:`stop` only closes the client (and
    removes the provider key it registered, when generated).

    ``provider``: credentials chosen as :class:`Mock` chooses them, registered with
    ``PUT /v1/keys/{keyId}``, and again after each ``client.reset()`` (a full reset drops keys
    registered at run time; a reset by another client does not re-register it).
    """

    def __init__(self, admin_url: str, token: Optional[str] = None, *,
                 provider_key: Union[str, os.PathLike, None] = None, provider_key_id: Optional[str] = None,
                 provider_team_id: Optional[str] = None) -> None:
        from urllib.parse import urlsplit

        self.admin_url = admin_url.rstrip("/")
        self._client: Optional[Client] = Client(self.admin_url, token=token)
        info = self._client.info()
        host = urlsplit(self.admin_url).hostname or "127.0.0.1"
        self.info = info
        self.apns_url = _reachable(info["apnsUrl"], host)
        self.channels_url = _reachable(info.get("channelsUrl") or "", host)
        self.webpush_url = _reachable(info.get("webPushUrl") or "", host)
        self.ca_path = ""
        self.directory = pathlib.Path(tempfile.mkdtemp(prefix="apns-mock-remote-"))
        if info.get("caUrl"):
            path = self.directory / "ca.pem"
            path.write_text(self._client.ca_pem())
            self.ca_path = str(path)
        self.provider = ProviderCredentials.from_settings(provider_key, provider_key_id, provider_team_id)
        self.provider.write(self.directory)
        self.provider.register(self._client)
        self._client.after_reset(self.provider.register)

    @property
    def client(self) -> Client:
        if self._client is None:
            raise RuntimeError("closed")
        return self._client

    def stop(self) -> None:
        if self._client is not None:
            if self.provider.generated:
                try:
                    self._client.delete_key(self.provider.key_id)
                except (AdminError, httpx.HTTPError):
                    pass  # gone already, or the server is
            self._client.close()
            self._client = None
        shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self) -> "Remote":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"apns_mock.Remote(apns_url={self.apns_url!r}, admin_url={self.admin_url!r})"
