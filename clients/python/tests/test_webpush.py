"""Web Push through the ``apns`` scope: a subscription for the test, a push to it by pywebpush, its
record, and the subscription unsubscribed when the scope ends."""

import json
import time

import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from apns_mock import AdminError, WebPushSubscription


def send_with_pywebpush(ca_path, subscription, data):
    """The application server's push: pywebpush (RFC 8291 aes128gcm, RFC 8292 VAPID) over
    requests, trusting only the mock's CA. Returns the response, whatever its status."""
    pywebpush = pytest.importorskip("pywebpush")
    import requests

    session = requests.Session()
    session.verify = ca_path
    # requests lets $REQUESTS_CA_BUNDLE (or $CURL_CA_BUNDLE) win over a session's verify unless
    # the session ignores the environment.
    session.trust_env = False
    claims = {"sub": "mailto:test@example.com", "aud": subscription.audience, "exp": int(time.time()) + 3600}
    try:
        return pywebpush.webpush(subscription.subscription_info, data, vapid_private_key=subscription.vapid_private_key,
                                 vapid_claims=claims, ttl=60, requests_session=session)
    except pywebpush.WebPushException as refused:
        return refused.response
    finally:
        session.close()


def test_a_webpush_to_the_tests_subscription_is_201_recorded_and_410_once_the_scope_ends(apns):
    subscription = apns.webpush_subscription(origin="https://example.com")
    assert apns.webpush_url == apns.client.info()["webPushUrl"]
    assert subscription.endpoint == f"{apns.webpush_url}/{subscription.id}"
    assert subscription.audience == apns.webpush_url
    assert subscription.subscription_info == {"endpoint": subscription.endpoint, "expirationTime": None,
                                              "keys": subscription.keys}
    assert set(subscription.keys) == {"p256dh", "auth"}
    assert subscription.vapid_private_key and subscription.vapid_private_key_pem.startswith("-----BEGIN PRIVATE KEY")

    answer = send_with_pywebpush(apns.ca_path, subscription, json.dumps({"title": "Hello", "body": "from pywebpush"}))
    assert answer.status_code == 201, answer.text
    apns_id = answer.headers["apns-id"]
    assert apns_id

    [record] = apns.wait(kind="webPush", subscriptionId=subscription.id)
    assert record["apnsId"].lower() == apns_id.lower()
    assert record["token"] == subscription.id
    assert record["payload"] == {"title": "Hello", "body": "from pywebpush"}  # decrypted with the subscription's keys
    assert record["webPush"]["vapid"]["subject"] == "mailto:test@example.com"

    # What the apns fixture does when the test ends: the subscription is unsubscribed.
    assert apns.cleanup()["webpush_subscriptions"] == 1
    assert apns.client.get_web_push_subscription(subscription.id)["state"] == "deleted"
    assert send_with_pywebpush(apns.ca_path, subscription, "after the test").status_code == 410


def test_a_subscription_for_the_application_servers_own_key(apns):
    own = ec.generate_private_key(ec.SECP256R1())
    with_private = apns.webpush_subscription(own)
    assert with_private.vapid_key is own and with_private.vapid_private_key
    public_only = apns.webpush_subscription(with_private.application_server_key, expiration_time=4102444800000)
    assert isinstance(public_only, WebPushSubscription)
    assert public_only.application_server_key == with_private.application_server_key
    assert public_only.vapid_private_key is None and public_only.expiration_time == 4102444800000
    assert apns.webpush_subscription_ids == [with_private.id, public_only.id]


def test_the_scope_refuses_webpush_records_without_a_subscription_id(apns):
    with pytest.raises(ValueError, match="subscriptionId"):
        apns.wait(kind="webPush")
    assert "tokenPrefix" not in apns.query(kind="webPush", subscriptionId="abc")


def test_an_endpoint_base_names_the_listener_as_the_caller_reaches_it(apns):
    # A container's Web Push port published on another host port: the endpoint keeps its path
    # on the URL the caller reaches, and the VAPID audience follows it.
    subscription = WebPushSubscription.create(apns.client, endpoint_base="https://127.0.0.1:40443/")
    try:
        assert subscription.endpoint == f"https://127.0.0.1:40443/{subscription.id}"
        assert subscription.audience == "https://127.0.0.1:40443"
        assert subscription.json["endpoint"] == f"{apns.webpush_url}/{subscription.id}"
    finally:
        apns.client.delete_web_push_subscription(subscription.id)


def test_a_push_held_while_the_browser_is_offline_is_delivered_once_it_is_online(apns):
    subscription = apns.webpush_subscription(device={"presence": "offline"})
    assert subscription.device["presence"] == "offline"
    assert subscription.json["device"] == {"presence": "offline", "periods": [], "notifications": "enabled"}

    answer = send_with_pywebpush(apns.ca_path, subscription, json.dumps({"title": "Held"}))
    assert answer.status_code == 201, answer.text
    apns_id = answer.headers["apns-id"]
    [stored] = apns.wait(kind="webPush", subscriptionId=subscription.id, delivery="stored")
    assert stored["apnsId"].lower() == apns_id.lower()

    now = subscription.set_device(presence="online")
    assert now["device"]["presence"] == "online"
    assert subscription.device["presence"] == "online" and subscription.json == now
    [delivered] = apns.wait(kind="webPush", subscriptionId=subscription.id, delivery="delivered")
    assert delivered["apnsId"].lower() == apns_id.lower()
    assert delivered["sequence"] == stored["sequence"]
    assert [step["state"] for step in delivered["deliveryHistory"]] == ["stored", "delivered"]


def test_set_device_refuses_an_unknown_field_naming_it(apns):
    subscription = apns.webpush_subscription()
    with pytest.raises(AdminError) as refused:
        subscription.set_device({"installed": False})
    assert refused.value.status == 400
    assert "installed" in refused.value.message
    # the keywords go over the dict; for_ is the body's "for": a period from now, online after
    [period] = subscription.set_device({"presence": "online"}, presence="lowPower", for_="10m")["device"]["periods"]
    assert period["presence"] == "lowPower" and period["until"] - period["from"] == 600_000
    assert subscription.device["periods"] == [period]
