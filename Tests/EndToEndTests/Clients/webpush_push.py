"""Sends Web Push messages to apns-mock with pywebpush (PyPI: RFC 8291 encryption, RFC 8292
VAPID) over HTTP/1.1, and with httpx over HTTP/2, and prints one JSON object of what came back.

usage: webpush_push.py ADMIN_URL CA_FILE

Each case is a provider's push as Apple's "Sending web push notifications in web apps and
browsers" describes it: a subscription made through the admin API as a browser makes one, a
push accepted (201 with apns-id), one signed by another VAPID key (403 VapidPkHashMismatch), one
without TTL (400 BadTtl), one over 4096 bytes (413), and one to the subscription once deleted
(410).
"""

import base64
import json
import os
import sys

import httpx
from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid
from pywebpush import WebPusher, WebPushException, webpush

ADMIN, CA = sys.argv[1], sys.argv[2]
# pywebpush sends with requests, which trusts this bundle.
os.environ["REQUESTS_CA_BUNDLE"] = CA
CLAIMS = {"sub": "mailto:ops@example.com"}


def public_key(vapid):
    point = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(point).rstrip(b"=").decode()


def answer(response):
    return {
        "status": response.status_code,
        "apnsId": response.headers.get("apns-id"),
        "body": response.text,
        "http": http_version(response),
    }


def http_version(response):
    """httpx says it; requests (under pywebpush) keeps urllib3's number (11 for HTTP/1.1)."""
    if hasattr(response, "http_version"):
        return response.http_version
    return {10: "HTTP/1.0", 11: "HTTP/1.1"}.get(getattr(response.raw, "version", None), "unknown")


def pywebpush_send(subscription, data, vapid):
    try:
        return answer(webpush(subscription, data, vapid_private_key=vapid, vapid_claims=dict(CLAIMS), ttl=60))
    except WebPushException as error:
        return answer(error.response)


server_key = Vapid()
server_key.generate_keys()
created = httpx.post(
    ADMIN + "/v1/webpush/subscriptions",
    json={"applicationServerKey": public_key(server_key), "origin": "https://example.com"},
)
subscription = created.json()
result = {"subscribe": created.status_code, "subscription": subscription}

result["accepted"] = pywebpush_send(
    subscription, json.dumps({"title": "Hello", "body": "from pywebpush"}), server_key
)
other_key = Vapid()
other_key.generate_keys()
result["otherKey"] = pywebpush_send(subscription, "x", other_key)
result["tooLarge"] = pywebpush_send(subscription, "y" * 5000, server_key)

# A push made by hand: pywebpush always sends TTL, and sends with requests (HTTP/1.1).
endpoint = subscription["endpoint"]
audience = endpoint.split("/", 3)[0] + "//" + endpoint.split("/", 3)[2]
encrypted = WebPusher(subscription).encode(b'{"title":"Over HTTP/2"}', content_encoding="aes128gcm")
authorization = server_key.sign(dict(CLAIMS, aud=audience))["Authorization"]
headers = {"authorization": authorization, "content-encoding": "aes128gcm", "urgency": "high"}
with httpx.Client(http2=True, verify=CA) as client:
    result["http2"] = answer(client.post(endpoint, content=encrypted["body"], headers=dict(headers, ttl="30")))
    result["noTtl"] = answer(client.post(endpoint, content=encrypted["body"], headers=headers))
    # Encrypted for other keys: Apple cannot read it either, so it is accepted.
    other = dict(subscription, keys={"p256dh": public_key(other_key), "auth": subscription["keys"]["auth"]})
    garbled = WebPusher(other).encode(b'{"title":"For someone else"}', content_encoding="aes128gcm")
    result["undecryptable"] = answer(client.post(endpoint, content=garbled["body"], headers=dict(headers, ttl="0")))

httpx.delete(ADMIN + "/v1/webpush/subscriptions/" + subscription["id"])
result["deleted"] = pywebpush_send(subscription, "z", server_key)
print(json.dumps(result))
