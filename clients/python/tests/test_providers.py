"""Real provider libraries against the mock, asserted through the ``apns`` fixture."""

import asyncio
import json
import ssl

import httpx
import pytest

from conftest import TOPIC, httpx_push, provider_token


def send_aioapns(make_client, *requests):
    """Sends NotificationRequests with one aioapns client; returns its results."""

    async def run():
        client = make_client()
        return [await client.send_notification(request) for request in requests]

    return asyncio.run(run())


def test_aioapns_push_is_recorded(apns, aioapns_client):
    from aioapns import NotificationRequest

    device = apns.token()
    [result] = send_aioapns(aioapns_client, NotificationRequest(
        device_token=device, message={"aps": {"alert": {"title": "Hi", "body": "from aioapns"}}}))
    assert result.is_successful, result.description

    [record] = apns.wait(token=device, payload__aps__alert__title="Hi", timeout=10)
    assert record["apnsId"].lower() == result.notification_id.lower()
    assert record["auth"]["method"] == "token" and record["auth"]["keyId"] == "ABC123DEFG"
    assert record["response"]["status"] == 200


def test_httpx_push_is_recorded(apns):
    device = apns.token()
    answer = httpx_push(apns, device, {"aps": {"alert": {"title": "From httpx"}}}, {"apns-collapse-id": "news"})
    assert answer.http_version == "HTTP/2" and answer.status_code == 200, answer.text

    [record] = apns.wait(match={"headers.apns-collapse-id": "news", "payload.aps.alert.title": "From httpx"})
    assert record["apnsId"] == answer.headers["apns-id"]
    assert record["collapseId"] == "news"


def test_fault_rules_make_aioapns_see_410_and_503(apns, aioapns_client):
    from aioapns import NotificationRequest

    gone, busy, fine = apns.token(), apns.token(), apns.token()
    apns.add_fault(id="gone", match={"token": gone},
                   action={"respond": {"status": 410, "reason": "Unregistered", "timestamp": 1700000000000}})
    apns.put_fault("busy", match={"token": busy}, select={"first": 1},
                   action={"respond": {"status": 503, "reason": "ServiceUnavailable"}})
    message = {"aps": {"alert": "hello"}}
    results = send_aioapns(aioapns_client, *(NotificationRequest(device_token=t, message=message)
                                             for t in (gone, busy, busy, fine)))

    assert [(r.status, r.description) for r in results] == [
        ("410", "Unregistered"), ("503", "ServiceUnavailable"), ("200", None), ("200", None)]
    [unregistered] = apns.wait(faultId="gone", status=410)
    assert unregistered["token"] == gone and unregistered["faultId"] == apns.fault_id("gone")
    assert len(apns.deliveries(faultId="busy")) == 1
    assert {rule["id"]: rule["hits"] for rule in apns.faults()} == {apns.fault_id("gone"): 1, apns.fault_id("busy"): 1}


def test_goaway_fault_makes_httpx_retry_on_a_new_connection(apns):
    device = apns.token()
    # lastStreamId 0: the push's stream is not covered, so it is refused and must be sent again.
    apns.add_fault(match={"token": device}, select={"first": 1},
                   action={"goaway": {"errorCode": "NO_ERROR", "lastStreamId": 0, "reason": "Shutdown"}})
    with httpx.Client(http2=True, verify=ssl.create_default_context(cafile=apns.ca_path), timeout=10) as client:
        with pytest.raises(httpx.RemoteProtocolError, match="ConnectionTerminated"):
            httpx_push(apns, device, {"aps": {"alert": "bye"}}, client=client)
        # httpx opens a new connection for the next request, as a provider must after GOAWAY.
        assert httpx_push(apns, device, {"aps": {"alert": "bye"}}, client=client).status_code == 200

    refused, delivered = apns.wait(count=2, token=device)
    assert refused["outcome"] == "goAway" and refused["response"] is None
    assert delivered["response"]["status"] == 200 and delivered["connectionId"] != refused["connectionId"]


def test_broadcast_reaches_each_subscribed_device(apns):
    first, second, other = apns.token(), apns.token(), apns.token()
    channel = apns.create_channel("com.example.app")["channelId"]
    apns.subscribe(channel, first)
    apns.subscribe(channel, second)
    update = {"aps": {"timestamp": 1700000060, "event": "update", "content-state": {"score": "1-0"}}}
    with httpx.Client(http2=True, verify=ssl.create_default_context(cafile=apns.ca_path), timeout=10) as client:
        answer = client.post(
            f"{apns.apns_url}/4/broadcasts/apps/com.example.app",
            headers={"authorization": f"bearer {provider_token()}", "apns-channel-id": channel,
                     "apns-push-type": "LiveActivity", "apns-priority": "10", "apns-expiration": "0"},
            content=json.dumps(update),
        )
    assert answer.status_code == 200, answer.text

    [broadcast] = apns.wait(kind="broadcast", channelId=channel)
    devices = apns.wait(count=2, channelId=channel, kind="push", payload__aps__event="update")
    assert sorted(r["token"] for r in devices) == sorted([first, second])
    assert all(r["viaChannel"] and r["apnsId"] == broadcast["apnsId"] for r in devices)
    assert apns.deliveries(token=other) == []
    # Scoped by this test's tokens (no channelId condition), the broadcast's own record is absent.
    assert [r["kind"] for r in apns.deliveries()] == ["push", "push"]
