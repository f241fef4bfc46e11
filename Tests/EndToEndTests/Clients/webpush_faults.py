"""Drives Web Push through apns-mock's fault rules with real clients, and prints one JSON object
of what each client saw: pywebpush (HTTP/1.1, with requests) and httpx (HTTP/2, ALPN h2).

usage: webpush_faults.py ADMIN_URL CA_FILE

Each case puts a rule matching `kind: webPush` and one subscription (the case's own), pushes,
and reports the answer or the error the client raised. A wait is open on the admin port while a
delayed answer is held. HTTP/1.1 has no streams, GOAWAY or SETTINGS: a reset cuts the
connection, a GOAWAY answers with `Connection: close`.
"""

import base64
import json
import os
import sys
import threading

import httpx
from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid
from pywebpush import WebPusher, WebPushException, webpush

ADMIN, CA = sys.argv[1], sys.argv[2]
os.environ["REQUESTS_CA_BUNDLE"] = CA
CLAIMS = {"sub": "mailto:ops@example.com"}
admin = httpx.Client(base_url=ADMIN, timeout=30)
server_key = Vapid()
server_key.generate_keys()
point = server_key.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
application_server_key = base64.urlsafe_b64encode(point).rstrip(b"=").decode()


def subscribe():
    return admin.post("/v1/webpush/subscriptions", json={"applicationServerKey": application_server_key}).json()


def fault(rule_id, subscription, action):
    rule = {"match": {"kind": "webPush", "subscriptionId": subscription["id"]}, "select": {"first": 1}, "action": action}
    status = admin.put("/v1/faults/" + rule_id, json=rule).status_code
    assert status in (200, 201), (rule_id, status)


def seen(response):
    return {
        "status": response.status_code,
        "body": response.text,
        "apnsId": response.headers.get("apns-id"),
        "connection": response.headers.get("connection"),
    }


def pywebpush_send(subscription, timeout=10):
    try:
        return seen(
            webpush(subscription, '{"title":"Hi"}', vapid_private_key=server_key, vapid_claims=dict(CLAIMS), ttl=60,
                    timeout=timeout)
        )
    except WebPushException as error:
        return seen(error.response)
    except Exception as error:  # the connection cut off, or the client's timeout
        return {"error": type(error).__name__}


def records(subscription):
    page = admin.get("/v1/deliveries", params={"subscriptionId": subscription["id"], "order": "asc"}).json()
    return [
        {"status": (r.get("response") or {}).get("status"), "outcome": r.get("outcome"), "detail": r.get("detail"),
         "faultId": r.get("faultId")}
        for r in page["deliveries"]
    ]


result = {}
for name, action in [
    ("tooMany", {"respond": {"status": 429, "reason": "TooManyRequests"}}),
    ("unavailable", {"respond": {"status": 503, "reason": "ServiceUnavailable"}}),
    ("goaway", {"goaway": {"errorCode": "NO_ERROR"}}),
    ("reset", {"resetStream": {"errorCode": "CANCEL"}}),
    ("close", {"close": {"respondFirst": False}}),
    ("maxStreams", {"setMaxConcurrentStreams": {"value": 1}}),
]:
    subscription = subscribe()
    fault(name, subscription, action)
    first = pywebpush_send(subscription)
    again = pywebpush_send(subscription)  # the rule acts once: a new connection is answered 201
    result[name] = {"first": first, "again": again, "records": records(subscription)}

# A delayed answer while a wait for it is open on the admin port.
subscription = subscribe()
fault("slow", subscription, {"delay": {"duration": "800ms"}})
waited = {}


def wait():
    response = admin.get(
        "/v1/deliveries/wait", params={"subscriptionId": subscription["id"], "status": "201", "count": "1",
                                       "timeout": "10s"})
    waited["status"] = response.status_code
    waited["count"] = response.json().get("count")


waiter = threading.Thread(target=wait)
waiter.start()
push = pywebpush_send(subscription)
waiter.join()
result["delayed"] = {"first": push, "wait": waited, "records": records(subscription)}

# A hang: the client's own timeout ends it; the record says the stream was never answered.
subscription = subscribe()
fault("hang", subscription, {"hang": {}})
result["hang"] = {"first": pywebpush_send(subscription, timeout=1), "records": records(subscription)}

# HTTP/2 (httpx): GOAWAY after the answer, then a reset stream.
subscription = subscribe()
endpoint = subscription["endpoint"]
audience = endpoint.split("/", 3)[0] + "//" + endpoint.split("/", 3)[2]
encrypted = WebPusher(subscription).encode(b'{"title":"Over HTTP/2"}', content_encoding="aes128gcm")
headers = {
    "authorization": server_key.sign(dict(CLAIMS, aud=audience))["Authorization"],
    "content-encoding": "aes128gcm",
    "ttl": "60",
}
http2 = {}
with httpx.Client(http2=True, verify=CA) as client:
    fault("h2goaway", subscription, {"goaway": {"errorCode": "NO_ERROR"}})
    response = client.post(endpoint, content=encrypted["body"], headers=headers)
    http2["goaway"] = dict(seen(response), http=response.http_version)
    response = client.post(endpoint, content=encrypted["body"], headers=headers)
    http2["afterGoaway"] = dict(seen(response), http=response.http_version)
    fault("h2reset", subscription, {"resetStream": {"errorCode": "CANCEL"}})
    try:
        http2["reset"] = seen(client.post(endpoint, content=encrypted["body"], headers=headers))
    except Exception as error:
        http2["reset"] = {"error": type(error).__name__}
    # A rule on a Web Push field: only high-urgency pushes to this subscription are refused.
    rule = {
        "match": {"subscriptionId": subscription["id"], "webPush": {"urgency": "high"}},
        "action": {"respond": {"status": 429, "reason": "TooManyRequests"}},
    }
    assert admin.put("/v1/faults/urgent", json=rule).status_code == 201
    http2["lowUrgency"] = seen(client.post(endpoint, content=encrypted["body"], headers=dict(headers, urgency="low")))
    http2["highUrgency"] = seen(client.post(endpoint, content=encrypted["body"], headers=dict(headers, urgency="high")))
http2["records"] = records(subscription)
result["http2"] = http2
print(json.dumps(result))
