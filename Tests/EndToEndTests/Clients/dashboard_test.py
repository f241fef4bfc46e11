"""The dashboard in a real browser: Debian's chromium, headless, driven by playwright. Pushes go
through httpx over HTTP/2 as a provider sends them; the checks read what the page shows.

usage: python dashboard_test.py ADMIN_URL APNS_PORT CA_FILE PROVIDER_JWT
           [--admin-token TOKEN] [--channels-port PORT] [--part deliveries|broadcast|device]

--part broadcast (on a mock no one has pushed to yet) checks the list before its first answer,
broadcasts, their deliveries and channel operations, and the address's fragment (#filter=…,
#record=…); --part deliveries (the default) the cards, the filter, the keyboard and the panels;
--part device the Device tab (what a device shows, and what APNs holds for it), the registry's
presence, and web pushes shown as Safari shows them (pywebpush).

Prints one JSON line per step ({"step": …, "seconds": …}); exits 1 with the reason on stderr when
a check fails, 3 when playwright or chromium is missing (the Swift test decides whether that fails).
"""

import json
import os
import re
import secrets
import ssl
import sys
import threading
import time
import uuid
from urllib.parse import quote

CHROMIUM = "/usr/bin/chromium"
# A banner shows within a second of the push's answer; under a sanitizer (make test-asan and
# test-tsan set APNS_MOCK_SANITIZER), whose instrumented server runs several times slower, within 5.
BANNER_SECONDS = 5.0 if os.environ.get("APNS_MOCK_SANITIZER") else 1.0

try:
    import httpx
    from playwright.sync_api import expect, sync_playwright
except ImportError as error:  # pragma: no cover - reported to the Swift test
    print(f"missing: {error}", file=sys.stderr)
    sys.exit(3)

# An expectation holds as soon as the page shows it; its bound only decides when to give up. Under
# make test-asan every suite runs at once on two cores, and playwright's default 5 s once ran out
# before the "Slow" card's class came (2026-11-29).
expect.set_options(timeout=30_000)


class Provider:
    """A provider's HTTP/2 connection to the mock (one connection, reused for every push)."""

    def __init__(self, port, ca_file, jwt):
        self.base = f"https://localhost:{port}"
        self.jwt = jwt
        self.client = httpx.Client(http2=True, verify=ssl.create_default_context(cafile=ca_file), timeout=10)

    def push(self, token, payload, topic="com.example.app", push_type="alert", **headers):
        request_headers = {
            "authorization": f"bearer {self.jwt}",
            "apns-topic": topic,
            "apns-push-type": push_type,
        }
        request_headers.update({name.replace("_", "-"): value for name, value in headers.items()})
        response = self.client.post(f"{self.base}/3/device/{token}", headers=request_headers, content=json.dumps(payload))
        return response.status_code

    def channels(self, port, method, path, body=None, **headers):
        """A channel-management request (the management port): the response."""
        request_headers = {"authorization": f"bearer {self.jwt}"}
        request_headers.update({name.replace("_", "-"): value for name, value in headers.items()})
        content = json.dumps(body) if body is not None else None
        return self.client.request(method, f"https://localhost:{port}/1/apps/com.example.app/{path}",
                                   headers=request_headers, content=content)

    def broadcast(self, channel, payload, request_id):
        """A broadcast to `channel` (the APNs port): the status."""
        response = self.client.post(f"{self.base}/4/broadcasts/apps/com.example.app", headers={
            "authorization": f"bearer {self.jwt}",
            "apns-channel-id": channel,
            "apns-push-type": "LiveActivity",
            "apns-priority": "10",
            "apns-expiration": "0",
            "apns-request-id": request_id,
        }, content=json.dumps(payload))
        return response.status_code


def expect_status(status, expected):
    assert status == expected, f"a push answered {status}, not {expected}"


def step(name, started):
    print(json.dumps({"step": name, "seconds": round(time.monotonic() - started, 3)}), flush=True)


def card(page, text):
    """The card whose title is `text`."""
    return page.locator("#cards .card", has=page.locator(".card-title", has_text=text))


def open_tab(page, name):
    """Opens a tab and waits until its panel has loaded (aria-busy false): a list drawn later would
    move what is below it, and a click begun before the move lands where the button was."""
    page.click(f"#tab-{name}")
    expect(page.locator(f"#panel-{name}")).to_have_attribute("aria-busy", "false")


def open_dashboard(browser, admin_url):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    problems = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(admin_url + "/")
    return page, problems


def check_deliveries(page, provider):
    device = secrets.token_hex(32)
    nonce = secrets.token_hex(3)

    # A banner's title appears within a second of the push's answer.
    started = time.monotonic()
    expect(page.locator("#stream-state")).to_have_attribute("data-state", "live", timeout=10_000)
    step("live", started)
    title = f"Hello {nonce}"
    status = provider.push(device, {"aps": {"alert": {"title": title, "subtitle": "From the test", "body": "Body text"},
                                            "badge": 2, "sound": "default", "interruption-level": "time-sensitive"}})
    assert status == 200, f"the push answered {status}"
    answered = time.monotonic()
    banner = card(page, title)
    banner.wait_for(timeout=BANNER_SECONDS * 2_000 + 3_000)
    latency = time.monotonic() - answered
    print(json.dumps({"step": "banner", "seconds": round(latency, 3)}), flush=True)
    assert latency <= BANNER_SECONDS, \
        f"the banner appeared {latency:.3f} s after the push was answered (at most {BANNER_SECONDS:g} s)"
    expect(banner.locator(".card-subtitle")).to_have_text("From the test")
    expect(banner.locator(".card-body")).to_have_text("Body text")
    expect(banner.locator(".badge")).to_have_text("2")
    expect(banner.locator(".card-chips")).to_contain_text("sound: default")
    expect(banner.locator(".card-chips")).to_contain_text("time-sensitive")
    expect(page.locator("#announcer")).to_contain_text(title)

    # A Live Activity update shows its content state.
    status = provider.push(device, {"aps": {"timestamp": int(time.time()), "event": "update",
                                            "content-state": {"score": "2-1"}, "alert": {"title": f"Goal {nonce}"}}},
                           topic="com.example.app.push-type.liveactivity", push_type="liveactivity")
    assert status == 200, f"the Live Activity push answered {status}"
    activity = card(page, f"Goal {nonce}")
    expect(activity.locator(".card-state")).to_contain_text("score")
    expect(activity.locator(".card-state")).to_contain_text("2-1")
    expect(activity.locator(".card-chips")).to_contain_text("Live Activity")

    # A rejected push shows Apple's reason and the mock's detail.
    status = provider.push("nothex", {"aps": {"alert": {"title": f"Rejected {nonce}"}}})
    assert status == 400, f"the bad token answered {status}"
    rejected = page.locator('#cards .card[data-status="400"]').first
    expect(rejected.locator(".card-reason")).to_have_text("400 BadDeviceToken")
    expect(rejected.locator(".card-detail")).to_contain_text("not even-length hex")
    step("cards", started)

    # The filter narrows the list; a filter the API refuses says why.
    page.fill("#filter-input", "status=400")
    page.press("#filter-input", "Enter")
    expect(page.locator("#cards .card")).to_have_count(1)
    expect(page.locator("#cards .card")).to_have_attribute("data-status", "400")
    expect(card(page, title)).to_have_count(0)
    provider.push(device, {"aps": {"alert": {"title": f"Hidden {nonce}"}}})
    provider.push("nothex2", {"aps": {"alert": {"title": "x"}}})
    expect(page.locator("#cards .card")).to_have_count(2)
    expect(card(page, f"Hidden {nonce}")).to_have_count(0)
    page.fill("#filter-input", "colour=red")
    page.press("#filter-input", "Enter")
    expect(page.locator("#filter-error")).to_contain_text("unknown query parameter 'colour'")
    page.click("#filter-clear")
    expect(card(page, f"Hidden {nonce}")).to_have_count(1)
    step("filter", started)

    # The keyboard opens the detail pane: arrows move between cards, Enter opens, Escape closes.
    cards = page.locator("#cards .card")
    cards.first.focus()
    page.keyboard.press("ArrowDown")
    expect(cards.nth(1)).to_be_focused()
    page.keyboard.press("ArrowDown")
    second = cards.nth(2)  # the first rejected push (newest first: nothex2, Hidden, nothex, …)
    expect(second).to_be_focused()
    apns_id = second.get_attribute("data-apns-id")
    page.keyboard.press("Enter")
    detail = page.locator("#detail")
    expect(detail).to_be_visible()
    expect(page.locator("#detail-title")).to_be_focused()
    expect(page.locator("#detail-title")).to_contain_text(apns_id)
    for heading in ["Answer", "Request", "Headers", "Authentication", "Lint", "Payload"]:
        expect(detail.locator("h3", has_text=heading)).to_have_count(1)
    expect(detail).to_contain_text("BadDeviceToken")
    expect(detail).to_contain_text("apns-topic")
    expect(detail).to_contain_text("Why:")
    page.keyboard.press("Escape")
    expect(detail).to_be_hidden()
    expect(second).to_be_focused()
    step("keyboard", started)
    return device


def check_faults(page, provider, device):
    started = time.monotonic()
    # A fault rule created in the page makes the next push fail; deleting it there undoes that.
    open_tab(page, "faults")
    rule = {"id": "dashboard-410", "match": {"token": device},
            "action": {"respond": {"status": 410, "reason": "Unregistered"}}}
    page.fill("#fault-json", json.dumps(rule))
    page.click("#fault-form button[type=submit]")
    expect(page.locator('[data-fault-id="dashboard-410"]')).to_be_visible()
    expect_status(provider.push(device, {"aps": {"alert": {"title": "After the rule"}}}), 410)
    expect(page.locator('[data-fault-id="dashboard-410"]')).to_contain_text("acted 1")
    page.fill("#fault-json", "{not json")
    page.click("#fault-form button[type=submit]")
    expect(page.locator("#fault-error")).to_contain_text("not JSON")
    open_tab(page, "deliveries")
    failed = card(page, "After the rule")
    expect(failed.locator(".card-reason")).to_have_text("410 Unregistered")
    expect(failed.locator(".card-chips")).to_contain_text("fault: dashboard-410")
    open_tab(page, "faults")
    page.click('button[aria-label="Delete rule dashboard-410"]')
    expect(page.locator('[data-fault-id="dashboard-410"]')).to_have_count(0)
    expect_status(provider.push(device, {"aps": {"alert": {"title": "Rule gone"}}}), 200)

    # A delayed answer: the card shows the push pending, then the same card (by sequence) answered.
    # 6 s: under make test-asan on a loaded machine the page once saw a 1.5 s delay already answered.
    page.fill("#fault-json", json.dumps({"id": "slow", "match": {"token": device}, "select": {"first": 1},
                                         "action": {"delay": {"duration": "6s"}}}))
    page.click("#fault-form button[type=submit]")
    expect(page.locator('[data-fault-id="slow"]')).to_be_visible()
    open_tab(page, "deliveries")
    answers = []
    pusher = threading.Thread(target=lambda: answers.append(provider.push(device, {"aps": {"alert": {"title": "Slow"}}})))
    pusher.start()
    slow = card(page, "Slow")
    expect(slow).to_have_class(re.compile(r"\bpending\b"))
    expect(slow).to_have_attribute("data-status", "pending")
    pusher.join(timeout=30)
    assert answers == [200], f"the delayed push answered {answers}"
    expect(slow).to_have_attribute("data-status", "200")
    expect(slow).to_have_count(1)
    expect(slow).not_to_have_class(re.compile(r"\bpending\b"))
    open_tab(page, "faults")

    # Modes toggle from the page.
    # The box flips before the page's request reaches the mock: wait for the page to say the mock took it.
    page.check("#mode-unavailable")
    expect(page.locator("#mode-unavailable")).to_be_checked()
    expect(page.locator("#announcer")).to_have_text("unavailable on.")
    expect_status(provider.push(device, {"aps": {"alert": {"title": "Unavailable"}}}), 503)
    # The refused push reaches the page by its event stream and is announced; waited for here, so
    # that it cannot replace the next announcement when the stream is slow (seen under TSan).
    expect(page.locator("#announcer")).to_contain_text("Rejected: 503 ServiceUnavailable")
    page.uncheck("#mode-unavailable")
    expect(page.locator("#mode-unavailable")).not_to_be_checked()
    expect(page.locator("#announcer")).to_have_text("unavailable off.")
    expect_status(provider.push(device, {"aps": {"alert": {"title": "Back"}}}), 200)
    step("faults", started)

    # The connection log and the registry.
    open_tab(page, "connections")
    expect(page.locator("#connection-table tbody tr").first).to_be_visible()
    expect(page.locator("#connection-table")).to_contain_text("h2")
    open_tab(page, "registry")
    expect(page.locator("#key-table")).to_contain_text("ABC123DEFG")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#tab-connections")).to_be_focused()
    expect(page.locator("#panel-connections")).to_be_visible()
    open_tab(page, "deliveries")

    # A narrow window: one column, nothing wider than the screen.
    page.set_viewport_size({"width": 390, "height": 800})
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 391, f"the page is {width} px wide in a 390 px window"
    page.set_viewport_size({"width": 1280, "height": 800})
    step("panels", started)


def check_loading(browser, admin_url):
    """Until the first page of deliveries is answered the list says so, not "No deliveries yet"."""
    started = time.monotonic()
    problems, held = [], []
    context = browser.new_context()
    page = context.new_page()
    page.on("pageerror", lambda error: problems.append(str(error)))
    # The first page's GET is held back (answered when the check lets it go).
    page.route(re.compile(r"/v1/deliveries\?"), lambda route: held.append(route))
    page.goto(admin_url + "/")
    count = page.locator("#delivery-count")
    expect(count).to_have_text("Loading…")
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert held, "the page never asked for its first page of deliveries"
    page.wait_for_timeout(300)
    expect(count).to_have_text("Loading…")
    expect(page.locator("#cards .card")).to_have_count(0)
    for route in held:
        route.continue_()
    page.unroute(re.compile(r"/v1/deliveries\?"))
    expect(count).to_contain_text("No deliveries yet")
    assert not problems, f"the page logged errors: {problems}"
    context.close()
    step("loading", started)


def device_card(page, token):
    """The card of a push to `token` (its route line names the token shortened)."""
    return page.locator("#cards .card", has=page.locator(".card-route", has_text=f"to {token[:8]}…{token[-4:]}"))


def check_broadcast(page, provider, admin_url, channels_port):
    """A broadcast, the devices it reached, and channel operations, each as what it is."""
    started = time.monotonic()
    expect(page.locator("#stream-state")).to_have_attribute("data-state", "live", timeout=10_000)
    created = provider.channels(channels_port, "POST", "channels",
                                {"message-storage-policy": 0, "push-type": "LiveActivity"})
    assert created.status_code == 201, f"the channel create answered {created.status_code}"
    channel = created.headers["apns-channel-id"]
    listed = provider.channels(channels_port, "GET", "all-channels")
    assert listed.status_code == 200, f"the channel list answered {listed.status_code}"

    # Channel-management requests are operations, not notifications.
    operations = page.locator('#cards .card[data-kind="channel"]')
    expect(operations).to_have_count(2)
    created_card = page.locator("#cards .card", has=page.locator(".card-title", has_text=re.compile(r"^Channel created$")))
    expect(created_card).to_have_count(1)
    expect(created_card).to_have_class(re.compile(r"\boperation\b"))
    expect(created_card.locator(".card-route")).to_have_text(f"channel {channel}")
    listed_card = page.locator("#cards .card", has=page.locator(".card-title", has_text=re.compile(r"^Channels listed$")))
    expect(listed_card).to_have_count(1)

    # Two devices subscribed (as an app does in-app), then one broadcast reaches both.
    devices = [secrets.token_hex(32), secrets.token_hex(32)]
    for device in devices:
        answer = provider.client.put(f"{admin_url}/v1/channels/{quote(channel, safe='')}/devices/{device}")
        assert answer.status_code == 200, f"subscribing answered {answer.status_code}: {answer.text}"
    request_id = str(uuid.uuid4())
    status = provider.broadcast(channel, {"aps": {"timestamp": int(time.time()), "event": "update",
                                                  "content-state": {"score": "3-1"}}}, request_id)
    assert status == 200, f"the broadcast answered {status}"
    broadcast = page.locator('#cards .card[data-kind="broadcast"]')
    expect(broadcast).to_have_count(1)
    expect(broadcast.locator(".card-title")).to_have_text("Broadcast → 2 devices")
    expect(broadcast.locator(".card-route")).to_have_text(f"channel {channel}")
    expect(broadcast.locator(".card-state")).to_contain_text("3-1")
    for device in devices:
        delivered = device_card(page, device)
        expect(delivered).to_have_count(1)
        expect(delivered.locator(".card-route")).to_have_text(f"to {device[:8]}…{device[-4:]} via channel {channel}")
        expect(delivered.locator(".card-title")).to_have_text("Live Activity update")
    expect(page.locator("#cards .card", has_text="Silent (background) push")).to_have_count(0)
    step("broadcast cards", started)

    # The broadcast links to itself and its deliveries: the list filtered to its id.
    broadcast.get_by_role("link", name="Show the broadcast and its deliveries").click()
    expect(page).to_have_url(re.compile("#filter=" + re.escape(quote(f"apnsId={request_id}", safe=""))))
    expect(page.locator("#filter-input")).to_have_value(f"apnsId={request_id}")
    expect(page.locator("#cards .card")).to_have_count(3)
    # Filtered, the broadcast's count is read from the API: still 2.
    page.fill("#filter-input", "kind=broadcast")
    page.press("#filter-input", "Enter")
    expect(page.locator("#cards .card")).to_have_count(1)
    expect(broadcast.locator(".card-title")).to_have_text("Broadcast → 2 devices")
    broadcast.click()
    expect(page.locator("#detail")).to_contain_text("devices reached")
    page.keyboard.press("Escape")
    page.click("#filter-clear")
    expect(operations).to_have_count(2)
    step("broadcast link", started)
    return devices


def fragment(page):
    return page.evaluate("location.hash")


def check_fragment(page, admin_url):
    """The filter and the open record live in the address: kept there, and restored from it."""
    started = time.monotonic()
    page.fill("#filter-input", "kind=channel")
    page.press("#filter-input", "Enter")
    expect(page.locator("#cards .card")).to_have_count(2)
    assert fragment(page) == "#filter=kind%3Dchannel", f"the address says {fragment(page)}"
    first = page.locator("#cards .card").first
    sequence = first.get_attribute("data-sequence")
    first.click()
    expect(page.locator("#detail")).to_be_visible()
    assert fragment(page) == f"#filter=kind%3Dchannel&record={sequence}", f"the address says {fragment(page)}"
    page.keyboard.press("Escape")
    assert fragment(page) == "#filter=kind%3Dchannel", f"the address says {fragment(page)}"

    # The same address in a new tab (its own session storage): the filter and the record come back.
    address = f"{admin_url}/#filter=kind%3Dchannel&record={sequence}"
    other = page.context.browser.new_page()
    other.goto(address)
    expect(other.locator("#filter-input")).to_have_value("kind=channel")
    expect(other.locator("#cards .card")).to_have_count(2)
    expect(other.locator("#detail")).to_be_visible()
    expect(other.locator("#detail-title")).to_contain_text(f"#{sequence} ")
    expect(other.locator(f'#cards .card[data-sequence="{sequence}"]')).to_have_attribute("aria-current", "true")
    other.close()
    # A record the filter hides is still opened (read from the API), beside the filtered list.
    other = page.context.browser.new_page()
    other.goto(f"{admin_url}/#filter=kind%3Dbroadcast&record={sequence}")
    expect(other.locator("#filter-input")).to_have_value("kind=broadcast")
    expect(other.locator("#cards .card")).to_have_count(1)
    expect(other.locator("#detail-title")).to_contain_text(f"#{sequence} ")
    expect(other.locator("#detail")).to_contain_text("Channel operation")
    # Changing the filter in the page changes the address; the open record stays in it.
    other.fill("#filter-input", "kind=push")
    other.press("#filter-input", "Enter")
    expect(other.locator("#cards .card")).to_have_count(2)
    assert fragment(other) == f"#filter=kind%3Dpush&record={sequence}", f"the address says {fragment(other)}"
    # An address changed in place (a link, a pasted fragment) is followed: filter on, record closed.
    other.evaluate("location.hash = '#filter=kind%3Dbroadcast'")
    expect(other.locator("#cards .card")).to_have_count(1)
    expect(other.locator("#filter-input")).to_have_value("kind=broadcast")
    expect(other.locator("#detail")).to_be_hidden()
    other.close()

    # Without a fragment, the tab's last filter (session storage), now also written to the address.
    page.goto(f"{admin_url}/")
    expect(page.locator("#filter-input")).to_have_value("kind=channel")
    expect(page.locator("#cards .card")).to_have_count(2)
    assert fragment(page) == "#filter=kind%3Dchannel", f"the address says {fragment(page)}"
    step("fragment", started)


def check_token(page, provider, token):
    started = time.monotonic()
    expect(page.locator("#stream-state")).to_have_attribute("data-state", "locked", timeout=10_000)
    expect(page.locator("#problem")).to_contain_text("admin token")
    expect(page.locator("#token-input")).to_be_focused()
    page.fill("#token-input", token)
    page.press("#token-input", "Enter")
    expect(page.locator("#stream-state")).to_have_attribute("data-state", "live", timeout=10_000)
    title = f"Behind a token {secrets.token_hex(3)}"
    expect_status(provider.push(secrets.token_hex(32), {"aps": {"alert": {"title": title}}}), 200)
    card(page, title).wait_for(timeout=2_000)
    page.reload()
    expect(page.locator("#stream-state")).to_have_attribute("data-state", "live", timeout=10_000)
    expect(card(page, title)).to_have_count(1)

    # Or in the address's fragment (never sent to the server), which the page then removes,
    # keeping the filter beside it.
    other = page.context.browser.new_page()
    other.goto(page.url.split("#")[0] + "#token=" + token + "&filter=status%3D200")
    expect(other.locator("#stream-state")).to_have_attribute("data-state", "live", timeout=10_000)
    expect(card(other, title)).to_have_count(1)
    expect(other.locator("#filter-input")).to_have_value("status=200")
    assert "token" not in other.url, f"the token stayed in the address: {other.url}"
    assert fragment(other) == "#filter=status%3D200", f"the address says {fragment(other)}"
    other.close()
    step("token", started)


def check_device(page, provider, admin_url):
    """The Device tab: a push to an offline device is listed as stored, then shown once the device
    is online; two pushes with one collapse id show as one; the registry sets presence."""
    started = time.monotonic()
    admin = httpx.Client(base_url=admin_url, timeout=10)
    device = secrets.token_hex(32)
    nonce = secrets.token_hex(3)
    answer = admin.put(f"/v1/devices/{device}", json={"topic": "com.example.app", "presence": "offline"})
    assert answer.status_code == 201, f"PUT /v1/devices answered {answer.status_code}: {answer.text}"

    # The registry lists the device offline, and opens its view.
    open_tab(page, "registry")
    row = page.locator(f'#device-table tr[data-token="{device}"]')
    expect(row.locator("select")).to_have_value("offline")
    row.get_by_role("button", name="Show").click()
    expect(page.locator("#panel-device")).to_be_visible()
    expect(page.locator("#device-token")).to_have_value(device)
    expect(page.locator("#device-conditions")).to_contain_text("offline")
    expect(page.locator("#device-presence")).to_have_value("offline")
    expect(page.locator("#device-notifications .card")).to_have_count(0)
    expect(page.locator("#device-stored")).to_contain_text("APNs holds nothing")

    # A push while offline: accepted (200), held by APNs, not shown.
    kickoff = f"Kickoff {nonce}"
    expect_status(provider.push(device, {"aps": {"alert": {"title": kickoff, "body": "0-0"}, "badge": 1}},
                                apns_collapse_id="score"), 200)
    stored = page.locator("#device-stored .card")
    expect(stored).to_have_count(1, timeout=5_000)
    expect(stored.locator(".card-title")).to_have_text(kickoff)
    expect(stored).to_contain_text("held: offline")
    expect(page.locator("#device-notifications .card")).to_have_count(0)
    step("device: stored", started)

    # Online: the stored push is delivered and shown with its preview, and its badge.
    page.select_option("#device-presence", "online")
    shown = page.locator("#device-notifications .card")
    expect(shown).to_have_count(1, timeout=5_000)
    expect(shown.locator(".card-title")).to_have_text(kickoff)
    expect(shown.locator(".card-body")).to_have_text("0-0")
    expect(page.locator("#device-stored .card")).to_have_count(0)
    expect(page.locator("#device-conditions")).to_contain_text("online")
    expect(page.locator("#device-badges")).to_contain_text("com.example.app: 1")
    registered = admin.get(f"/v1/devices/{device}").json()
    assert registered["presence"] == "online" and registered["topic"] == "com.example.app", registered
    step("device: online", started)

    # A newer push with the same collapse id replaces the shown one (polled, within seconds).
    goal = f"Goal {nonce}"
    expect_status(provider.push(device, {"aps": {"alert": {"title": goal, "body": "1-0"}, "badge": 2}},
                                apns_collapse_id="score"), 200)
    expect(shown.locator(".card-title")).to_have_text([goal], timeout=5_000)
    expect(shown).to_contain_text("replaced 1 older")
    expect(page.locator("#device-badges")).to_contain_text("com.example.app: 2")
    other = f"Other {nonce}"
    expect_status(provider.push(device, {"aps": {"alert": {"title": other}}}), 200)
    expect(shown.locator(".card-title")).to_have_text([other, goal], timeout=5_000)
    step("device: collapse", started)

    # The registry's presence: a PUT that keeps the device's topic.
    open_tab(page, "registry")
    row.locator("select").select_option("lowPower")
    expect(page.locator("#announcer")).to_have_text(re.compile("is lowPower"))
    registered = admin.get(f"/v1/devices/{device}").json()
    assert registered["presence"] == "lowPower" and registered["topic"] == "com.example.app", registered

    # A token typed: an unknown one has an empty view; a malformed one is the API's words.
    open_tab(page, "device")
    expect(page.locator("#device-conditions")).to_contain_text("lowPower")
    page.fill("#device-token", secrets.token_hex(32))
    page.press("#device-token", "Enter")
    expect(page.locator("#device-notification-count")).to_have_text(re.compile("Nothing shown yet"))
    expect(page.locator("#device-notifications .card")).to_have_count(0)
    page.fill("#device-token", "not-a-token")
    page.press("#device-token", "Enter")
    expect(page.locator("#device-error")).to_contain_text("path parameter 'token'")
    admin.close()
    step("device", started)


def check_webpush(page, admin_url, ca_file):
    """A web push as Safari shows it: the site, the title and the body the mock decrypted, for a
    classic `{title, body}` message and a Declarative Web Push one (with the page it opens); a body
    encrypted for other keys says it could not be decrypted, and why."""
    import base64

    from cryptography.hazmat.primitives import serialization
    from py_vapid import Vapid
    from pywebpush import WebPusher, webpush

    started = time.monotonic()
    os.environ["REQUESTS_CA_BUNDLE"] = ca_file
    admin = httpx.Client(base_url=admin_url, timeout=10)
    vapid = Vapid()
    vapid.generate_keys()

    def public_key(key):
        point = key.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return base64.urlsafe_b64encode(point).rstrip(b"=").decode()

    subscription = admin.post("/v1/webpush/subscriptions", json={
        "applicationServerKey": public_key(vapid), "origin": "https://shop.example"}).json()
    claims = {"sub": "mailto:ops@example.com"}
    nonce = secrets.token_hex(3)
    open_tab(page, "deliveries")
    classic = f"Order {nonce} shipped"
    webpush(subscription, json.dumps({"title": classic, "body": "Arrives Tuesday"}), vapid_private_key=vapid,
            vapid_claims=dict(claims), ttl=60)
    shown = card(page, classic)
    expect(shown).to_have_count(1, timeout=BANNER_SECONDS * 5_000)
    expect(shown.locator(".app-name")).to_have_text("shop.example")
    expect(shown.locator(".card-body")).to_have_text("Arrives Tuesday")
    expect(shown.locator(".card-chips")).to_contain_text("Web Push")
    expect(shown.locator(".card-chips")).to_contain_text("TTL 60 s")
    expect(shown.locator(".card-route")).to_contain_text("Web Push to subscription")
    step("webpush: classic", started)

    declarative = f"Sale {nonce}"
    message = {"web_push": 8030, "notification": {
        "title": declarative, "body": "20% off today", "navigate": "https://shop.example/sale"}, "app_badge": 3}
    webpush(subscription, json.dumps(message), vapid_private_key=vapid, vapid_claims=dict(claims), ttl=60,
            headers={"Urgency": "high"})
    shown = card(page, declarative)
    expect(shown).to_have_count(1, timeout=BANNER_SECONDS * 5_000)
    expect(shown.locator(".card-body")).to_have_text("20% off today")
    expect(shown.locator(".card-chips")).to_contain_text("Declarative Web Push")
    expect(shown.locator(".card-chips")).to_contain_text("urgency high")
    expect(shown.locator(".card-links")).to_contain_text("Opens https://shop.example/sale")
    expect(shown.locator(".badge")).to_have_text("3")
    step("webpush: declarative", started)

    # Encrypted for another browser's keys: accepted (Apple cannot read it either), shown as such.
    other = Vapid()
    other.generate_keys()
    wrong = dict(subscription, keys={"p256dh": public_key(other), "auth": subscription["keys"]["auth"]})
    body = WebPusher(wrong).encode(b'{"title":"For someone else"}', content_encoding="aes128gcm")["body"]
    endpoint = subscription["endpoint"]
    audience = "https://" + endpoint.split("/", 3)[2]
    with httpx.Client(verify=ca_file) as client:
        answer = client.post(endpoint, content=body, headers={
            "authorization": vapid.sign(dict(claims, aud=audience))["Authorization"],
            "content-encoding": "aes128gcm", "ttl": "60", "topic": f"undecryptable{nonce}"})
    assert answer.status_code == 201, answer.text
    shown = page.locator("#cards .card", has=page.locator(".card-chips", has_text=f"topic undecryptable{nonce}"))
    expect(shown).to_have_count(1, timeout=BANNER_SECONDS * 5_000)
    expect(shown.locator(".card-title")).to_have_text("Could not decrypt the message")
    expect(shown.locator(".card-chips")).to_contain_text("not decrypted: authenticationFailed")
    shown.click()
    expect(page.locator("#detail-body")).to_contain_text("Why it did not decrypt: authenticationFailed")
    expect(page.locator("#detail-body")).to_contain_text("mailto:ops@example.com")
    admin.close()
    step("webpush", started)


def check_device_pages(page, admin_url):
    """A fleet registered in bulk (POST /v1/devices): the registry lists the first page of
    GET /v1/devices, in token order, and says how many there are."""
    started = time.monotonic()
    admin = httpx.Client(base_url=admin_url, timeout=30)
    fleet = [{"token": "ff" + secrets.token_hex(31), "presence": "offline"} for _ in range(1_001)]
    answer = admin.post("/v1/devices", json={"devices": fleet})
    assert answer.status_code == 200 and answer.json()["created"] == 1_001, answer.text
    count = admin.get("/v1/devices", params={"limit": 1}).json()["count"]
    open_tab(page, "deliveries")
    open_tab(page, "registry")
    expect(page.locator("[data-device-count]")).to_have_text(
        f"The first 1,000 of {count:,} devices, by token: GET /v1/devices?after=… gives the next page.")
    expect(page.locator("#device-table tbody tr")).to_have_count(1_000)
    admin.close()
    step("device pages", started)


def main():
    admin_url, apns_port, ca_file, jwt, *rest = sys.argv[1:]
    options = dict(zip(rest[::2], rest[1::2]))
    admin_token = options.get("--admin-token")
    channels_port = options.get("--channels-port")
    part = options.get("--part", "deliveries")
    provider = Provider(apns_port, ca_file, jwt)
    started = time.monotonic()
    try:
        playwright = sync_playwright().start()
    except Exception as error:  # pragma: no cover
        print(f"missing: playwright cannot start: {error}", file=sys.stderr)
        sys.exit(3)
    try:
        try:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)
        except Exception as error:
            print(f"missing: chromium cannot start from {CHROMIUM}: {error}", file=sys.stderr)
            sys.exit(3)
        step("browser", started)
        if part == "broadcast":
            check_loading(browser, admin_url)
        page, problems = open_dashboard(browser, admin_url)
        if admin_token:
            check_token(page, provider, admin_token)
        elif part == "broadcast":
            check_broadcast(page, provider, admin_url, channels_port)
            check_fragment(page, admin_url)
        elif part == "device":
            check_device(page, provider, admin_url)
            check_webpush(page, admin_url, ca_file)
            check_device_pages(page, admin_url)
        else:
            device = check_deliveries(page, provider)
            check_faults(page, provider, device)
        # The page's own errors and Content-Security-Policy refusals ("Refused to …"); answers
        # outside 2xx are logged as "Failed to load resource" and some are the point (a refused
        # filter, the 401s before the token, the favicon the page does not have).
        problems = [problem for problem in problems if not problem.startswith("Failed to load resource")]
        assert not problems, f"the page logged errors: {problems}"
        browser.close()
    except AssertionError as error:
        print(f"FAILED: {error}", file=sys.stderr)
        sys.exit(1)
    finally:
        playwright.stop()
        provider.client.close()
    step("done", started)


if __name__ == "__main__":
    main()
