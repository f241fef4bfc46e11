"""Screenshots of the dashboard for the README (`make screenshots`): starts apns-mock with the
example configuration on free ports, pushes a few notifications with httpx over HTTP/2, then a
broadcast to a channel two devices listen to, and photographs the main views with Debian's
chromium driven by playwright (no browser download).

usage: python scripts/dashboard_screenshots.py APNS_MOCK_BINARY OUTPUT_DIRECTORY
"""

import json
import os
import ssl
import subprocess
import sys
import time

from urllib.parse import quote

import httpx
from playwright.sync_api import expect, sync_playwright

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CA = os.path.join(ROOT, "certs/ca.pem")
DEVICE = "abababababababababababababababababababababababababababababababab"
UNREGISTERED = "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"
FRENCH = "0f" * 32


def start(binary):
    server = subprocess.Popen(
        [binary, "serve", "--config", "apns-mock.example.yaml", "--port", "0", "--admin-port", "0", "--channels-port", "0"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    ready = server.stdout.readline()
    fields = dict(part.split("=", 1) for part in ready.split() if "=" in part)
    if "admin" not in fields:
        server.kill()
        sys.exit(f"apns-mock did not start: {ready!r}")
    return server, fields["admin"], fields["apns"], fields["channels"]


def provider_token(binary):
    return subprocess.run(
        [binary, "token", "--key", "certs/AuthKey_ABC123DEFG.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()


def pushes(binary, admin, apns):
    jwt = provider_token(binary)
    httpx.put(f"{admin}/v1/devices/{FRENCH}", json={"topic": "com.example.app", "locale": "fr"})
    with httpx.Client(http2=True, verify=ssl.create_default_context(cafile=CA), timeout=10) as client:
        def push(token, payload, topic="com.example.app", push_type="alert", **extra):
            headers = {"authorization": f"bearer {jwt}", "apns-topic": topic, "apns-push-type": push_type}
            headers.update({name.replace("_", "-"): value for name, value in extra.items()})
            client.post(f"{apns}/3/device/{token}", headers=headers, content=json.dumps(payload))
            time.sleep(0.05)

        push(DEVICE, {"aps": {"alert": {"title": "Your order has shipped", "body": "Arriving Thursday between 9 and 11."},
                              "badge": 1, "sound": "default"}})
        push(FRENCH, {"aps": {"alert": {"title": "Nouveau message", "subtitle": "De Camille",
                                        "body": "On se retrouve à 19 h ?"}, "badge": 3, "thread-id": "chat-42"}})
        push(DEVICE, {"aps": {"content-available": 1}}, push_type="background", apns_priority="5")
        push(DEVICE, {"aps": {"timestamp": int(time.time()), "event": "update",
                              "content-state": {"home": "Lyon", "away": "Nantes", "score": "2 – 1", "minute": 78},
                              "alert": {"title": "Goal!", "body": "Lyon lead 2 – 1"}}},
             topic="com.example.app.push-type.liveactivity", push_type="liveactivity")
        push(UNREGISTERED, {"aps": {"alert": {"title": "Welcome back", "body": "We saved your cart."}}})
        push(DEVICE, {"aps": {"alert": {"title": "Wrong app", "body": "Sent to the wrong topic"}}},
             topic="com.example.other")
        push(DEVICE, {"aps": {"alert": {"title": "Smoke alarm", "body": "Kitchen: smoke detected"},
                              "sound": {"critical": 1, "name": "alarm.caf", "volume": 0.9},
                              "interruption-level": "critical"}})
        httpx.post(f"{admin}/v1/faults", json={
            "id": "outage", "match": {"topic": "com.example.app"}, "select": {"first": 1},
            "action": {"respond": {"status": 503, "reason": "ServiceUnavailable"}}})
        push(DEVICE, {"aps": {"alert": {"title": "Flash sale", "body": "Two hours only"}}})
        added = httpx.post(f"{admin}/v1/faults", json={
            "id": "gone", "match": {"token": FRENCH}, "select": {"first": 1}, "action": {"respond": {"status": 410, "reason": "Unregistered"}}})
        added.raise_for_status()


def broadcast(binary, admin, apns, channels):
    """A channel (management port), two devices whose Live Activities listen to it, one broadcast."""
    auth = {"authorization": f"bearer {provider_token(binary)}"}
    with httpx.Client(http2=True, verify=ssl.create_default_context(cafile=CA), timeout=10) as client:
        created = client.post(f"{channels}/1/apps/com.example.app/channels", headers=auth,
                              content=json.dumps({"message-storage-policy": 0, "push-type": "LiveActivity"}))
        channel = created.headers["apns-channel-id"]
        for token in (DEVICE, FRENCH):
            httpx.put(f"{admin}/v1/channels/{quote(channel, safe='')}/devices/{token}").raise_for_status()
        headers = dict(auth, **{"apns-channel-id": channel, "apns-push-type": "LiveActivity",
                                "apns-priority": "10", "apns-expiration": "0"})
        client.post(f"{apns}/4/broadcasts/apps/com.example.app", headers=headers, content=json.dumps(
            {"aps": {"timestamp": int(time.time()), "event": "update",
                     "content-state": {"home": "Lyon", "away": "Nantes", "score": "3 – 1", "minute": 84}}}))


def main():
    binary, output = sys.argv[1], sys.argv[2]
    os.makedirs(output, exist_ok=True)
    server, admin, apns, channels = start(binary)
    try:
        pushes(binary, admin, apns)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"], headless=True)
            page = browser.new_page(viewport={"width": 1280, "height": 800}, color_scheme="light")
            page.goto(admin + "/")
            expect(page.locator("#stream-state")).to_have_attribute("data-state", "live")
            expect(page.locator("#cards .card")).to_have_count(8)
            page.wait_for_timeout(1500)  # let the arrival highlight fade
            page.screenshot(path=os.path.join(output, "dashboard-deliveries.png"))
            page.locator('#cards .card[data-status="410"]').click()
            expect(page.locator("#detail")).to_be_visible()
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=os.path.join(output, "dashboard-detail.png"))
            page.click("#detail-close")
            page.click("#tab-faults")
            expect(page.locator('[data-fault-id="gone"]')).to_be_visible()
            page.screenshot(path=os.path.join(output, "dashboard-faults.png"))
            page.click("#tab-deliveries")
            page.set_viewport_size({"width": 390, "height": 800})
            page.screenshot(path=os.path.join(output, "dashboard-narrow.png"))
            page.set_viewport_size({"width": 1280, "height": 1000})
            broadcast(binary, admin, apns, channels)
            sent = page.locator('#cards .card[data-kind="broadcast"]')
            expect(sent.locator(".card-title")).to_have_text("Broadcast → 2 devices")
            page.wait_for_timeout(1500)
            sent.click()
            expect(page.locator("#detail")).to_contain_text("devices reached")
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=os.path.join(output, "dashboard-broadcast.png"))
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    for name in sorted(os.listdir(output)):
        print(os.path.join(output, name))


if __name__ == "__main__":
    main()
