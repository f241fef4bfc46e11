"""The CI flow against apns-mock: push as the app does, wait for the delivery, verify the file."""

import json
import pathlib
import ssl
import subprocess
import time

import httpx
import jwt
import pytest
import requests

EXPECTATIONS = pathlib.Path(__file__).resolve().parent / "welcome-push.yaml"
DEVICE = "7f3a000000000000000000000000000000000000000000000000000000000001"  # registered by the file's setup
TOPIC = "com.example.app"


def send_welcome(apns_url, ca_file, key_file, key_id, team_id, device):
    """Stands in for your app's provider code: one alert, token-authenticated, over HTTP/2.

    Against Apple, apns_url is https://api.sandbox.push.apple.com and the system's roots are
    trusted; against the mock, only its CA is trusted, for this connection only.
    """
    provider_token = jwt.encode(
        {"iss": team_id, "iat": int(time.time())},
        pathlib.Path(key_file).read_text(),
        algorithm="ES256",
        headers={"kid": key_id},
    )
    payload = {"aps": {"alert": {"title": "Welcome", "body": "Thanks for signing up"}, "sound": "default"}}
    tls = ssl.create_default_context(cafile=ca_file)
    with httpx.Client(http2=True, verify=tls, timeout=10) as client:
        return client.post(
            f"{apns_url}/3/device/{device}",
            headers={
                "authorization": f"bearer {provider_token}",
                "apns-topic": TOPIC,
                "apns-push-type": "alert",
                "apns-priority": "10",
                "content-type": "application/json",
            },
            content=json.dumps(payload),
        )


def test_welcome_push_is_delivered(apns_mock):
    # 1. Push, as the app would.
    answer = send_welcome(
        apns_mock.apns_url, apns_mock.ca_file, apns_mock.key_file, apns_mock.key_id, apns_mock.team_id, DEVICE
    )
    assert answer.http_version == "HTTP/2"
    assert answer.status_code == 200, answer.text
    apns_id = answer.headers["apns-id"]

    # 2. Wait for the delivery instead of sleeping: 200 as soon as it is recorded, 408 after 10 s.
    waited = requests.get(
        f"{apns_mock.admin_url}/v1/deliveries/wait",
        params={"count": 1, "timeout": "10s", "token": DEVICE, "payload.aps.alert.title": "Welcome"},
        headers=apns_mock.admin_headers,
        timeout=15,
    )
    assert waited.status_code == 200, waited.text
    record = waited.json()["deliveries"][0]
    assert record["apnsId"] == apns_id
    assert record["topic"] == TOPIC
    assert record["pushType"] == "alert"
    assert record["auth"]["method"] == "token"
    assert record["auth"]["signatureVerified"] is True
    assert record["response"]["status"] == 200

    # 3. Check the whole run against the expectation file; exit 0 when every expectation holds.
    verify = subprocess.run(
        [apns_mock.binary, "verify", str(EXPECTATIONS), "--admin", apns_mock.admin_url],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if verify.returncode != 0:
        pytest.fail(f"apns-mock verify exited {verify.returncode}:\n{verify.stdout}{verify.stderr}", pytrace=False)
