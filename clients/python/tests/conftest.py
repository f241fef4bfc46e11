"""Helpers for the package's own tests: the sample provider key, and pushes by real clients.

The fixtures ``apns_mock`` and ``apns`` come from the package's pytest plugin (entry point).
"""

import json
import os
import pathlib
import ssl
import time
from urllib.parse import urlsplit

import jwt
import pytest

REPOSITORY = pathlib.Path(__file__).resolve().parents[3]
KEY_FILE = pathlib.Path(os.environ.get("APNS_MOCK_KEY_FILE", REPOSITORY / "certs" / "AuthKey_ABC123DEFG.p8"))
KEY_ID = "ABC123DEFG"
TEAM_ID = "DEF123GHIJ"
TOPIC = "com.example.app"


def provider_token() -> str:
    return jwt.encode({"iss": TEAM_ID, "iat": int(time.time())}, KEY_FILE.read_text(), algorithm="ES256",
                      headers={"kid": KEY_ID})


def httpx_push(apns, token, payload, headers=None, client=None):
    """One push with httpx over HTTP/2, trusting only the mock's CA."""
    import httpx

    own = client is None
    client = client or httpx.Client(http2=True, verify=ssl.create_default_context(cafile=apns.ca_path), timeout=10)
    try:
        return client.post(
            f"{apns.apns_url}/3/device/{token}",
            headers={"authorization": f"bearer {provider_token()}", "apns-topic": TOPIC, "apns-push-type": "alert",
                     **(headers or {})},
            content=json.dumps(payload),
        )
    finally:
        if own:
            client.close()


@pytest.fixture
def aioapns_client(apns_mock):
    """An aioapns client aimed at the mock (aioapns has no host option: its class attributes)."""
    from aioapns import APNs
    from aioapns.connection import APNsDevelopmentClientProtocol

    address = urlsplit(apns_mock.apns_url)
    APNsDevelopmentClientProtocol.APNS_SERVER = address.hostname
    APNsDevelopmentClientProtocol.APNS_PORT = address.port

    def make():
        return APNs(key=KEY_FILE.read_text(), key_id=KEY_ID, team_id=TEAM_ID, topic=TOPIC, use_sandbox=True,
                    ssl_context=ssl.create_default_context(cafile=apns_mock.ca_path), max_connection_attempts=2)

    return make


pytest_plugins = ["pytester"]
