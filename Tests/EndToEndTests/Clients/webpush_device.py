"""What reaches a subscription's browser after the 201, driven with pywebpush: the delivery model
applied to Web Push (RFC 8030: TTL is the expiration, Urgency the priority, Topic replaces).

usage: webpush_device.py ADMIN_URL CA_FILE

Prints one JSON object: each record's delivery history by case, and what a wait open while the
browser came back online returned.
"""

import base64
import json
import os
import sys
import threading

import httpx
from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid
from pywebpush import webpush

ADMIN, CA = sys.argv[1], sys.argv[2]
os.environ["REQUESTS_CA_BUNDLE"] = CA
admin = httpx.Client(base_url=ADMIN, timeout=30)
server_key = Vapid()
server_key.generate_keys()
point = server_key.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
KEY = base64.urlsafe_b64encode(point).rstrip(b"=").decode()


def subscribe(device):
    body = {"applicationServerKey": KEY}
    if device is not None:
        body["device"] = device
    response = admin.post("/v1/webpush/subscriptions", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def push(subscription, title, ttl, headers=None):
    response = webpush(subscription, json.dumps({"title": title}), vapid_private_key=server_key,
                       vapid_claims={"sub": "mailto:ops@example.com"}, ttl=ttl, headers=headers or {})
    return response.status_code


def deliveries(subscription):
    page = admin.get("/v1/deliveries", params={"subscriptionId": subscription["id"], "order": "asc"}).json()
    return {
        record["payload"]["title"]: [step["state"] + ("/" + step["reason"] if step.get("reason") else "")
                                     for step in record.get("deliveryHistory") or []] or [record.get("delivery")]
        for record in page["deliveries"]
    }


result = {}
offline = subscribe({"presence": "offline"})
result["created"] = offline["device"]
statuses = [
    push(offline, "kept", 600),
    push(offline, "now or never", 0),
    push(offline, "score 1", 600, {"Topic": "scores"}),
    push(offline, "score 2", 600, {"Topic": "scores"}),
]
result["statuses"] = statuses
waited = {}


def wait():
    response = admin.get("/v1/deliveries/wait", params={
        "subscriptionId": offline["id"], "delivery": "delivered", "count": "1", "timeout": "10s"})
    waited["status"] = response.status_code
    waited["titles"] = [record["payload"]["title"] for record in response.json()["deliveries"]]


waiter = threading.Thread(target=wait)
waiter.start()
online = admin.put(f"/v1/webpush/subscriptions/{offline['id']}/device", json={"presence": "online"})
waiter.join()
result["online"] = {"status": online.status_code, "device": online.json().get("device")}
result["wait"] = waited
result["offline"] = deliveries(offline)

saving = subscribe({"presence": "lowPower"})
push(saving, "low", 600, {"Urgency": "low"})
push(saving, "high", 600, {"Urgency": "high"})
result["lowPower"] = deliveries(saving)

gone = subscribe({"presence": "offline"})
push(gone, "held", 600)
admin.delete(f"/v1/webpush/subscriptions/{gone['id']}")
result["unsubscribed"] = deliveries(gone)

# The decrypted message is linted as a Declarative Web Push message.
lint_target = subscribe(None)
webpush(lint_target, json.dumps({"web_push": 8030, "notification": {"title": "no navigate"}}),
        vapid_private_key=server_key, vapid_claims={"sub": "mailto:ops@example.com"}, ttl=60)
webpush(lint_target, json.dumps({"title": "for the service worker"}),
        vapid_private_key=server_key, vapid_claims={"sub": "mailto:ops@example.com"}, ttl=60)
result["lint"] = {
    name: admin.get("/v1/deliveries", params={"subscriptionId": lint_target["id"], "lint": name}).json()["total"]
    for name in ["notification-navigate-missing", "error", "clean"]
}

refused = admin.put(f"/v1/webpush/subscriptions/{saving['id']}/device", json={"installed": False})
result["refused"] = {"status": refused.status_code, "body": refused.json()}
print(json.dumps(result))
