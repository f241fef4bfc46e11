"""A pytest fixture that runs apns-mock for the test session.

The mock listens on free ports (`--port 0 --admin-port 0`) and prints one line once both
listen; the fixture reads the ports from that line, registers a freshly made token-signing key,
hands the test everything a provider needs, and stops the server when the session ends.

Environment:
  APNS_MOCK        the apns-mock binary (default: `apns-mock` on PATH)
  APNS_MOCK_CERTS  a directory with server.pem, server-key.pem and ca.pem (default: a new
                   development CA and server certificate, made with `apns-mock certs generate`)
  APNS_MOCK_ADMIN_TOKEN  when set, serve requires it on admin calls (and verify sends it), so
                   the admin calls here send it too
"""

import dataclasses
import os
import pathlib
import queue
import re
import shutil
import subprocess
import threading

import pytest
import requests

HERE = pathlib.Path(__file__).resolve().parent
START_TIMEOUT = 15  # seconds to wait for the ready line
READY_LINE = re.compile(r"apns-mock ready apns=(\S+) admin=(\S+)")

# The provider's identity in this test run. Any 10-character ids do: the key is made here.
KEY_ID = "TESTKEY001"
TEAM_ID = "TESTTEAM01"


@dataclasses.dataclass(frozen=True)
class APNSMock:
    binary: str  # the apns-mock binary, for `apns-mock verify`
    apns_url: str  # https://127.0.0.1:PORT — where the provider pushes
    admin_url: str  # http://127.0.0.1:PORT — the admin API
    admin_headers: dict  # send these on every admin call
    ca_file: str  # the CA the provider must trust for apns_url (and only for it)
    key_file: str  # AuthKey_<KEY_ID>.p8, the provider's token-signing key
    key_id: str
    team_id: str


def _run(binary, *arguments):
    result = subprocess.run([binary, *arguments], capture_output=True, text=True, timeout=30)
    if result.returncode != 0:
        pytest.fail(f"apns-mock {' '.join(arguments)} failed:\n{result.stdout}{result.stderr}")


def _wait_for_ready_line(process, lines):
    """Returns the (apns, admin) URLs from the ready line, or fails the session."""
    try:
        while True:
            line = lines.get(timeout=START_TIMEOUT)
            if line is None:
                pytest.fail(f"apns-mock exited with status {process.wait()} before it was ready")
            match = READY_LINE.search(line)
            if match:
                return match.group(1), match.group(2)
    except queue.Empty:
        pytest.fail(f"apns-mock printed no ready line within {START_TIMEOUT} s")


@pytest.fixture(scope="session")
def apns_mock(tmp_path_factory):
    binary = shutil.which(os.environ.get("APNS_MOCK") or "apns-mock")
    if not binary:
        # A missing mock fails the run: a skipped CI check would pass without testing anything.
        pytest.fail(f"apns-mock not found ({os.environ.get('APNS_MOCK') or 'PATH'}): set APNS_MOCK to the binary, or put it on PATH")
    work = tmp_path_factory.mktemp("apns-mock")

    given = os.environ.get("APNS_MOCK_CERTS")
    certs = pathlib.Path(given).resolve() if given else work / "certs"
    if not given:
        _run(binary, "certs", "generate", "--out", str(certs))
    _run(binary, "keys", "generate", "--key-id", KEY_ID, "--team-id", TEAM_ID, "--out", str(work))

    process = subprocess.Popen(
        [
            binary, "serve", "--port", "0", "--admin-port", "0",
            "--tls-cert", str(certs / "server.pem"), "--tls-key", str(certs / "server-key.pem"),
            # Unknown device tokens and key ids are refused, as Apple refuses them: the device
            # comes from the expectation file's setup, the key from the registration below.
            "--strict-registry",
            "--expectations", str(HERE / "welcome-push.yaml"),
        ],
        cwd=work,
        stdout=subprocess.PIPE,
        text=True,
    )
    # Read stdout on a thread: the ready line with a timeout, then whatever follows, so that a
    # full pipe never blocks the server.
    lines = queue.Queue()

    def read_stdout():
        for line in process.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read_stdout, daemon=True).start()
    try:
        apns_url, admin_url = _wait_for_ready_line(process, lines)

        token = os.environ.get("APNS_MOCK_ADMIN_TOKEN")
        admin_headers = {"authorization": f"Bearer {token}"} if token else {}

        # Register the provider's public key, so the mock checks every token's signature.
        public_key = (work / f"AuthKey_{KEY_ID}.pub.pem").read_text()
        answer = requests.put(
            f"{admin_url}/v1/keys/{KEY_ID}", json={"teamId": TEAM_ID, "publicKey": public_key},
            headers=admin_headers,
            timeout=10,
        )
        assert answer.status_code in (200, 201), answer.text

        yield APNSMock(
            binary=binary,
            apns_url=apns_url,
            admin_url=admin_url,
            admin_headers=admin_headers,
            ca_file=str(certs / "ca.pem"),
            key_file=str(work / f"AuthKey_{KEY_ID}.p8"),
            key_id=KEY_ID,
            team_id=TEAM_ID,
        )
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
