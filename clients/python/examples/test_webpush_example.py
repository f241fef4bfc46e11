import json
import pytest
import requests

pytest.importorskip("pywebpush")  # Python 3.10 or later
from pywebpush import webpush  # noqa: E402


def send_welcome(subscription_info, vapid_private_key, ca_path, title):
    """Your application server: pywebpush posting to the subscription's endpoint, trusting the mock's CA."""
    session = requests.Session()
    session.verify, session.trust_env = ca_path, False  # else $REQUESTS_CA_BUNDLE wins over verify
    return webpush(subscription_info, json.dumps({"title": title}), vapid_private_key=vapid_private_key,
                   vapid_claims={"sub": "mailto:ops@example.com"}, ttl=60, requests_session=session)


def test_welcome_web_push(apns):
    subscription = apns.webpush_subscription()  # as a browser subscribes; unsubscribed after the test
    answer = send_welcome(subscription.subscription_info, subscription.vapid_private_key, apns.ca_path, "Welcome")
    assert answer.status_code == 201
    [record] = apns.wait(kind="webPush", subscriptionId=subscription.id, payload__title="Welcome")
    assert record["apnsId"] == answer.headers["apns-id"]
