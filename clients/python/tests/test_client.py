"""The admin operations, through the ``apns`` scope and the session's client."""

import ssl
import threading
import time

import httpx
import pytest

import apns_mock
from apns_mock import AdminError, WaitTimeout
from conftest import httpx_push, provider_token


def test_an_unknown_matcher_field_raises_the_api_message(apns):
    with pytest.raises(AdminError) as raised:
        apns.deliveries(tokn=apns.token())
    assert raised.value.code == "badParameter" and raised.value.status == 400
    assert "did you mean 'token'" in raised.value.message


def test_a_wait_that_times_out_carries_near_misses_and_a_dashboard_link(apns):
    device = apns.token()
    assert httpx_push(apns, device, {"aps": {"alert": {"title": "Hello"}}}).status_code == 200

    with pytest.raises(WaitTimeout) as raised:
        apns.wait(token=device, payload__aps__alert__title="Goodbye", timeout="500ms")
    error = raised.value
    assert error.records == []
    [miss] = error.near_misses
    assert miss["record"]["token"] == device
    assert {"field": "payload.aps.alert.title", "expected": "Goodbye", "actual": "Hello"}.items() <= miss["differences"][0].items()
    text = str(error)
    assert "0 of 1 record matched" in text and "expected Goodbye, got Hello" in text
    assert f"{apns.admin_url}/#filter=" in text and f"tokenPrefix%3D{apns.prefix}" in text


def test_a_timed_out_wait_says_the_servers_words(apns):
    """``str(WaitTimeout)`` is the 408's ``explanation`` as the server serves it, "did you mean"
    for a misspelled payload key included."""
    device = apns.token()
    assert httpx_push(apns, device, {"aps": {"alert": {"title": "Hi"}}}).status_code == 200

    with pytest.raises(WaitTimeout) as raised:
        apns.wait(token=device, payload__aps__alert__titel="Hi", timeout="300ms")
    error = raised.value
    served = httpx.get(f"{apns.admin_url}/v1/deliveries/wait?{error.query}&count=1&timeout=300ms")
    assert served.status_code == 408
    assert str(error) == error.explanation
    # The same words when asked again: the first line, and this device's record among the closest.
    # Not the whole text: under pytest -n 4 (one server) other workers' records come and go
    # between the two calls, and the closest records after this device's may differ.
    again = served.json()["explanation"]
    assert again.splitlines()[0] == str(error).splitlines()[0]
    mine = error.near_misses[0]["record"]["summary"]
    assert mine in again and mine in str(error)
    assert "(did you mean payload.aps.alert.title?)" in str(error)
    assert error.near_misses[0]["record"]["token"] == device
    assert apns_mock.record_line(error.near_misses[0]["record"]) == error.near_misses[0]["record"]["summary"]


def test_live_waits_through_a_delayed_410_see_the_answer_and_explain_a_misspelled_key(apns):
    """A fault rule holds this device's answer 1.5 s and then answers 410 (APNs's "Unregistered",
    https://developer.apple.com/documentation/usernotifications/handling-notification-responses-from-apns).
    Two waits are open while the push waits out its delay: one for the 410 returns once the
    answer is decided, with the rule's id on the record; one with a misspelled payload key times
    out with the server's words, naming that record's summary and "did you mean"."""
    device = apns.token()
    rule = apns.add_fault(id="late-410", match={"token": device},
                          action={"delay": {"duration": "1500ms"}, "respond": {"status": 410, "reason": "Unregistered"}})
    results = {}

    def wait_for_the_answer():
        results["answered"] = apns.wait(token=device, status=410, timeout="20s")

    def wait_misspelled():
        try:
            results["misspelled"] = apns.wait(token=device, payload__aps__alert__titel="Late", timeout="5s")
        except WaitTimeout as error:
            results["misspelled"] = error

    waiters = [threading.Thread(target=wait_for_the_answer), threading.Thread(target=wait_misspelled)]
    for waiter in waiters:
        waiter.start()
    started = time.monotonic()
    response = httpx_push(apns, device, {"aps": {"alert": {"title": "Late"}}})
    held = time.monotonic() - started
    assert response.status_code == 410 and response.json()["reason"] == "Unregistered"
    assert held >= 1.4, f"the answer came after {held:.2f} s, before the rule's delay ran out"
    for waiter in waiters:
        waiter.join(30)

    [record] = results["answered"]
    assert record["token"] == device and record["response"]["status"] == 410
    assert record["faultId"] == rule["id"]
    error = results["misspelled"]
    assert isinstance(error, WaitTimeout), f"the misspelled wait matched: {error}"
    text = str(error)
    assert "(did you mean payload.aps.alert.title?)" in text
    closest = error.near_misses[0]["record"]
    assert closest["token"] == device and closest["response"]["status"] == 410
    assert closest["summary"] in text and "410" in closest["summary"]


def test_wait_returns_as_soon_as_count_records_exist(apns):
    device = apns.token()
    for n in range(3):
        assert httpx_push(apns, device, {"aps": {"alert": f"n{n}"}}).status_code == 200
    assert len(apns.wait(count=3, token=device)) == 3
    assert [r["payload"]["aps"]["alert"] for r in apns.deliveries(token=device, order="desc")] == ["n2", "n1", "n0"]
    assert len(apns.deliveries(token=device, limit=2)) == 2


def test_events_yield_new_records_live(apns):
    device = apns.token()
    stream = apns.events(token=device, read_timeout=10)
    seen = []

    def read():
        seen.append(next(stream))

    reader = threading.Thread(target=read)
    reader.start()
    # The stream opens when the reader starts; push until it has seen one (a push made before the
    # stream opened is not sent on it).
    for _ in range(50):
        httpx_push(apns, device, {"aps": {"alert": "live"}})
        reader.join(0.2)
        if seen:
            break
    stream.close()
    assert seen and seen[0]["token"] == device and seen[0]["payload"]["aps"]["alert"] == "live"


def test_a_reader_that_fell_behind_gets_an_event_batch_then_records():
    # A server of its own with a store of 20 records: a reader more than 10 records behind is
    # summarised (half the store), down to 5 behind.
    with apns_mock.Mock(args=["--record-capacity", "20"]) as mock:
        device = "ab" * 32
        # One provider token for every push: a new one per push would be refused (429).
        authorization = {"authorization": f"bearer {provider_token()}"}
        with httpx.Client(http2=True, verify=ssl.create_default_context(cafile=mock.ca_path), timeout=10) as client:
            for n in range(30):
                answer = httpx_push(mock, device, {"aps": {"alert": f"n{n}"}}, headers=authorization, client=client)
                assert answer.status_code == 200, answer.text
        stream = mock.client.events(since=0, read_timeout=10)
        batch = next(stream)
        assert isinstance(batch, apns_mock.EventBatch)
        assert (batch.first, batch.last) == (1, 25)
        assert batch["count"] == 15 and batch["agedOut"] == 10
        assert batch["byStatus"] == {"200": 15} and batch["byOutcome"] == {"answered": 15}
        assert "fell behind" in batch["reason"]
        records = [next(stream) for _ in range(5)]
        stream.close()
        assert not any(isinstance(record, apns_mock.EventBatch) for record in records)
        assert [record["sequence"] for record in records] == [26, 27, 28, 29, 30]
        with pytest.raises(AdminError) as refused:
            next(mock.client.events(behind="sometimes"))
        assert refused.value.code == "badParameter" and "'behind'" in refused.value.message


def test_a_fault_rule_through_apns_reaches_only_this_tests_tokens(apns):
    rule = apns.add_fault(action={"respond": {"status": 500, "reason": "InternalServerError"}})
    assert rule["match"] == {"tokenPrefix": apns.prefix}
    assert httpx_push(apns, apns.token(), {"aps": {"alert": "x"}}).status_code == 500
    # Another test's token (another prefix) is not touched by this rule.
    other = apns_mock.Scope(apns.client, apns_url=apns.apns_url, ca_path=apns.ca_path)
    assert httpx_push(other, other.token(), {"aps": {"alert": "x"}}).status_code == 200


def test_put_fault_creates_then_replaces_and_post_of_a_used_id_is_409(apns):
    first = apns.put_fault("slow", action={"delay": {"duration": "10ms"}})
    again = apns.put_fault("slow", action={"delay": {"duration": "20ms"}})
    assert first["id"] == again["id"] == apns.fault_id("slow")
    assert apns.fault("slow")["action"]["delay"]["duration"] == "20ms"
    with pytest.raises(AdminError) as raised:
        apns.add_fault(id="slow", action={"hang": {}})
    assert raised.value.code == "faultRuleExists" and raised.value.status == 409
    apns.delete_fault("slow")
    assert apns.faults() == []


def test_devices_unregistered_get_410(apns):
    device = apns.token()
    assert apns.register_device(device, topic="com.example.app")["state"] == "active"
    assert apns.unregister_device(device)["state"] == "unregistered"
    answer = httpx_push(apns, device, {"aps": {"alert": "x"}})
    assert answer.status_code == 410 and answer.json()["reason"] == "Unregistered"
    assert apns.device(device)["state"] == "unregistered"


def test_devices_follows_the_pages_of_the_list_in_token_order():
    # A server of its own: the list is every device, in pages of two.
    with apns_mock.Mock() as mock:
        tokens = [f"{index:02x}" * 32 for index in (5, 1, 4, 2, 3)]
        answer = mock.client.put_devices(body={"devices": [{"token": token} for token in tokens]})
        assert answer["created"] == 5
        first = mock.client.list_devices(limit=2)
        assert first["count"] == 5 and first["nextAfter"] == sorted(tokens)[1]
        assert [device["token"] for device in mock.client.devices(page_size=2)] == sorted(tokens)
        assert [device["token"] for device in mock.client.devices()] == sorted(tokens)


def test_an_offline_device_gets_its_newest_push_when_it_comes_back():
    # A server of its own, on a manual clock (issue 32; Apple: "Sending notification requests to
    # APNs", apns-expiration and apns-collapse-id): an offline phone keeps one push per app.
    with apns_mock.Mock(args=["--clock", "manual"]) as mock:
        device = "ab" * 32
        authorization = {"authorization": f"bearer {provider_token()}"}
        registered = mock.client.register_device(device, presence="offline", for_="10m")
        assert registered["presence"] == "online" and registered["periods"][0]["presence"] == "offline"
        first = httpx_push(mock, device, {"aps": {"alert": "1-0"}}, headers=authorization)
        second = httpx_push(mock, device, {"aps": {"alert": "2-0"}}, headers=authorization)
        assert first.status_code == second.status_code == 200
        assert mock.client.delivery(first.headers["apns-id"])["delivery"]["reason"] == "replaced"
        assert mock.client.deliveries(delivery="stored")[0]["apnsId"] == second.headers["apns-id"]
        mock.client.move_clock(advance="10m")
        delivered = mock.client.wait(delivery="delivered", timeout="5s")
        assert [r["apnsId"] for r in delivered] == [second.headers["apns-id"]]
        gone = mock.client.register_device(device, installed=False, uninstall_grace="2m")
        assert gone["installed"] is False and gone["uninstallGrace"] == "2m"
        with pytest.raises(AdminError) as refused:
            mock.client.register_device(device, presence="asleep")
        assert refused.value.status == 400 and "presence" in refused.value.message


def test_verify_takes_a_dict_and_a_yaml_file(apns, tmp_path):
    device = apns.token()
    httpx_push(apns, device, {"aps": {"alert": {"title": "Welcome"}}})
    passed = apns.verify({"expect": [{"name": "welcome", "match": {"payload": {"aps": {"alert": {"title": "Welcome"}}}},
                                      "count": {"atLeast": 1}, "within": "5s"}]})
    assert passed["passed"] is True
    file = tmp_path / "expect.yaml"
    file.write_text("expect:\n  - name: nothing rejected\n    match: {status: 400}\n    count: {none: true}\n"
                    "  - name: a second welcome\n    match: {payload: {aps: {alert: {title: Welcome}}}}\n"
                    "    count: {exactly: 2}\n")
    result = apns.verify(file)
    assert [r["passed"] for r in result["results"]] == [True, False]
    assert result["results"][1]["matched"] == 1


def test_reset_through_apns_deletes_only_this_tests_records(apns):
    mine = apns.token()
    other = apns_mock.Scope(apns.client, apns_url=apns.apns_url, ca_path=apns.ca_path)
    theirs = other.token()
    httpx_push(apns, mine, {"aps": {"alert": "x"}})
    httpx_push(other, theirs, {"aps": {"alert": "x"}})
    apns.wait(token=mine)
    other.wait(token=theirs)
    assert apns.reset()["deliveries"] == 1
    assert apns.deliveries() == []
    assert len(other.deliveries()) == 1
    other.reset()


def test_a_token_of_another_test_is_refused_by_the_scope(apns):
    with pytest.raises(ValueError, match="not one of this test's"):
        apns.wait(token="ab" * 32)


def test_server_information_and_ca(apns_mock):
    info = apns_mock.client.info()
    assert info["apnsUrl"] == apns_mock.apns_url and info["adminUrl"] == apns_mock.admin_url
    assert apns_mock.client.ca_pem().startswith("-----BEGIN CERTIFICATE-----")
    assert open(apns_mock.ca_path).read() == apns_mock.client.ca_pem()
    assert apns_mock.client.health()["status"] == "ok"
    assert "providers" in apns_mock.client.report(window="10m")


def test_matcher_arguments_become_the_query_the_api_reads():
    from apns_mock._client import query_string

    params = apns_mock.matcher_params({"headers.apns-collapse-id": "a b", "payload": {"aps": {"badge": 3}}},
                                      payload__aps__alert__title="Hi", status=[200, 410], topic=None)
    assert query_string(params) == ("headers.apns-collapse-id=a%20b&payload.aps.badge=3"
                                    "&payload.aps.alert.title=Hi&status=200&status=410")


def test_the_clock_moves_a_provider_tokens_age():
    # A server of its own: the clock is server-wide. Apple: a provider token older than an hour
    # is answered 403 ExpiredProviderToken.
    with apns_mock.Mock() as mock:
        device = "ab" * 32
        authorization = {"authorization": f"bearer {provider_token()}"}
        assert httpx_push(mock, device, {"aps": {"alert": "now"}}, headers=authorization).status_code == 200
        moved = mock.client.move_clock(advance="61m")
        assert abs(moved["offsetMs"] - 61 * 60_000) < 5_000 and moved["mode"] == "system"
        expired = httpx_push(mock, device, {"aps": {"alert": "later"}}, headers=authorization)
        assert expired.status_code == 403 and expired.json()["reason"] == "ExpiredProviderToken"
        assert mock.client.reset_clock()["mode"] == "system"
        assert abs(mock.client.clock()["offsetMs"]) < 5_000
        with pytest.raises(AdminError) as refused:
            mock.client.move_clock(set=0)
        assert refused.value.code == "badRequest" and "before the newest record" in refused.value.message
        with pytest.raises(ValueError):
            mock.client.move_clock()


def test_device_notifications_show_the_newest_of_a_collapse_id_and_badges(apns):
    device = apns.token()
    assert apns.device_notifications(device)["notifications"] == []
    for title, badge in (("Score 1-0", 1), ("Score 2-0", 2)):
        answer = httpx_push(apns, device, {"aps": {"alert": {"title": title}, "badge": badge}},
                            headers={"apns-collapse-id": "score"})
        assert answer.status_code == 200
    assert httpx_push(apns, device, {"aps": {"alert": {"title": "Hello"}}}).status_code == 200
    apns.wait(count=3, token=device)
    view = apns.device_notifications(device.upper())
    assert view["token"] == device
    assert [n["preview"]["title"] for n in view["notifications"]] == ["Hello", "Score 2-0"]
    assert view["notifications"][1]["collapseId"] == "score" and view["notifications"][1]["replaced"] == 1
    assert view["notificationCount"] == 2 and view["badges"] == {"com.example.app": 2}
    assert view["stored"] == [] and view["conditions"]["presence"] == "online"
    assert [n["preview"]["title"] for n in apns.device_notifications(device, limit=1)["notifications"]] == ["Hello"]
    with pytest.raises(AdminError) as raised:
        apns.client.device_notifications("not-hex")
    assert raised.value.code == "badParameter" and "path parameter 'token'" in raised.value.message
    with pytest.raises(ValueError):
        apns.device_notifications("ab" * 32)


def test_the_delivery_log_of_a_sandbox_push_by_its_unique_id(apns):
    device = apns.token()
    answer = httpx_push(apns, device, {"aps": {"alert": "logged"}})
    assert answer.status_code == 200
    unique_id = answer.headers["apns-unique-id"]
    log = apns.client.delivery_log(unique_id)
    assert log["uniqueId"] == unique_id and log["kind"] == "push"
    assert log["token"] == device and log["apnsId"] == answer.headers["apns-id"]
    assert [event["event"] for event in log["events"]] == ["received", "delivered"]
    assert log["events"][0]["at"] <= log["events"][1]["at"]
    with pytest.raises(AdminError) as missing:
        apns.client.delivery_log("00000000-0000-4000-8000-000000000000")
    assert missing.value.status == 404 and missing.value.code == "notFound"
    with pytest.raises(AdminError) as malformed:
        apns.client.delivery_log("not-a-uuid")
    assert malformed.value.status == 400 and "uniqueId" in malformed.value.message
