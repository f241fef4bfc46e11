"""A provider's test of what reaches an offline phone (issue 32): it pushes with httpx over
HTTP/2 while the device is offline, moves the mock clock, waits for the delivery it expects while
the phone comes back online, and prints one JSON object with what it saw.

usage: python httpx_after_the_200.py APNS_PORT ADMIN_URL CA_FILE JWT DEVICE_TOKEN
The device is registered offline by the expectation file the server was started with
(expectations/offline-device.yaml); the server's clock is manual.
"""

import json
import ssl
import sys
import threading

import httpx


def main():
    port, admin_url, ca_file, jwt, device = sys.argv[1:]
    context = ssl.create_default_context(cafile=ca_file)
    admin = httpx.Client(base_url=admin_url, timeout=30)
    now = admin.get("/v1/clock").json()["now"]
    seen = {"clockNow": now}

    with httpx.Client(http2=True, verify=context, timeout=10) as apns:

        def push(title, topic="com.example.app", **headers):
            response = apns.post(
                f"https://localhost:{port}/3/device/{device}",
                headers={"authorization": f"bearer {jwt}", "apns-topic": topic, "apns-push-type": "alert", **headers},
                content=json.dumps({"aps": {"alert": {"title": title, "body": "after the 200"}}}),
            )
            return {"status": response.status_code, "apnsId": response.headers.get("apns-id"), "http": response.http_version}

        in_an_hour = str(now // 1000 + 3600)
        seen["code"] = push("Your code", **{"apns-expiration": "0"})
        seen["score1"] = push("1-0", **{"apns-expiration": in_an_hour, "apns-collapse-id": "score"})
        seen["score2"] = push("2-0", **{"apns-expiration": in_an_hour, "apns-collapse-id": "score"})
        seen["news"] = push("Breaking", topic="com.example.news", **{"apns-expiration": str(now // 1000 + 120)})

    def delivery(apns_id):
        return admin.get(f"/v1/deliveries/{apns_id}").json()["delivery"]

    seen["whileOffline"] = {name: delivery(seen[name]["apnsId"]) for name in ["code", "score1", "score2", "news"]}
    # Five minutes pass on the mock clock: the news alert's two minutes run out in storage.
    seen["moved"] = admin.post("/v1/clock", json={"advance": "5m"}).json()
    seen["afterFiveMinutes"] = {name: delivery(seen[name]["apnsId"]) for name in ["score2", "news"]}

    # Still offline: a short wait for the newest score's delivery times out (408).
    early = admin.get(
        "/v1/deliveries/wait",
        params={"apnsId": seen["score2"]["apnsId"], "delivery": "delivered", "timeout": "300ms"},
    )
    seen["earlyWait"] = early.status_code

    # Wait for the newest score to reach the phone while the phone comes back online.
    waited = {}

    def wait():
        response = admin.get(
            "/v1/deliveries/wait",
            params={"apnsId": seen["score2"]["apnsId"], "delivery": "delivered", "timeout": "20s"},
        )
        waited["status"] = response.status_code
        waited["body"] = response.json()

    waiter = threading.Thread(target=wait)
    waiter.start()
    waiter.join(0.5)  # let the wait begin first (it finds the delivery either way)
    seen["online"] = admin.put(f"/v1/devices/{device}", json={"presence": "online"}).status_code
    waiter.join()
    seen["wait"] = {"status": waited["status"], "deliveries": waited["body"]["deliveries"]}
    print(json.dumps(seen))


main()
