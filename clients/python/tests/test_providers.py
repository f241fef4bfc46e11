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
    """docs/BROADCAST.md's flow: the provider creates a channel over the channel-management API, a
    push-to-start subscribes one device, the app subscribes another in-app, and one broadcast
    makes one record per subscribed device."""
    started, in_app, other = apns.token(), apns.token(), apns.token()
    authorization = {"authorization": f"bearer {provider_token()}"}
    with httpx.Client(http2=True, verify=ssl.create_default_context(cafile=apns.ca_path), timeout=10) as client:
        created = client.post(f"{apns.channels_url}/1/apps/com.example.app/channels", headers=authorization,
                              content=json.dumps({"message-storage-policy": 1, "push-type": "LiveActivity"}))
        assert created.status_code == 201, created.text
        channel = apns.adopt_channel(created.headers["apns-channel-id"])

        start = {"aps": {"timestamp": 1700000000, "event": "start", "content-state": {"score": "0-0"},
                         "attributes-type": "MatchAttributes", "attributes": {"home": "A", "away": "B"},
                         "alert": {"title": "Kick-off"}, "input-push-channel": channel}}
        answer = client.post(f"{apns.apns_url}/3/device/{started}", content=json.dumps(start), headers={
            **authorization, "apns-topic": "com.example.app.push-type.liveactivity", "apns-push-type": "liveactivity"})
        assert answer.status_code == 200, answer.text
        apns.subscribe(channel, in_app)

        update = {"aps": {"timestamp": 1700000060, "event": "update", "content-state": {"score": "1-0"}}}
        answer = client.post(f"{apns.apns_url}/4/broadcasts/apps/com.example.app", content=json.dumps(update), headers={
            **authorization, "apns-channel-id": channel, "apns-push-type": "LiveActivity", "apns-priority": "10",
            "apns-expiration": "0"})
        assert answer.status_code == 200, answer.text

    [broadcast] = apns.wait(kind="broadcast", channelId=channel)
    devices = apns.wait(count=2, channelId=channel, kind="push", payload__aps__event="update")
    assert sorted(r["token"] for r in devices) == sorted([started, in_app])
    assert all(r["viaChannel"] and r["apnsId"] == broadcast["apnsId"] for r in devices)
    assert apns.deliveries(token=other) == []
    # By this test's tokens alone (no channelId): the push-to-start and the two deliveries, not the
    # broadcast's own record, which carries no token.
    assert sorted((r["token"], r["viaChannel"]) for r in apns.deliveries()) == sorted(
        [(started, False), (started, True), (in_app, True)])


def test_a_broadcast_to_a_large_channel_reaches_every_device_after_its_answer(apns):
    """Two hundred devices subscribed in one call: the broadcast's 200 comes at once and its
    deliveries follow (stored after the answer for a channel of more than 64), each by token."""
    devices = [apns.token() for _ in range(200)]
    channel = apns.adopt_channel(apns.client.create_channel(bundle_id="com.example.app", environment="sandbox")[
        "channelId"])
    assert apns.subscribe_many(channel, devices) == {"channelId": channel, "added": 200, "subscribers": 200}
    page = apns.client.channel(channel)
    assert page["subscribers"] == 200 and page["tokens"] == sorted(devices)
    with httpx.Client(http2=True, verify=ssl.create_default_context(cafile=apns.ca_path), timeout=10) as client:
        update = {"aps": {"timestamp": 1700000060, "event": "update", "content-state": {"score": "2-0"}}}
        answer = client.post(f"{apns.apns_url}/4/broadcasts/apps/com.example.app", content=json.dumps(update),
                             headers={"authorization": f"bearer {provider_token()}", "apns-channel-id": channel,
                                      "apns-push-type": "LiveActivity", "apns-priority": "10", "apns-expiration": "0"})
        assert answer.status_code == 200, answer.text
    received = apns.wait(count=200, channelId=channel, kind="push")
    assert sorted(r["token"] for r in received) == sorted(devices)
    assert all(r["payload"]["aps"]["content-state"] == {"score": "2-0"} for r in received)
