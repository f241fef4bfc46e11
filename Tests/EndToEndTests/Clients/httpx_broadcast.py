"""A Live Activity broadcast flow with httpx over HTTP/2, as a provider runs it: create a channel
(channel-management port), read it, list the app's channels, broadcast an update (APNs port),
delete the channel, broadcast again. Prints one JSON object with every answer.

usage: python httpx_broadcast.py APNS_PORT CHANNELS_PORT CA_FILE (--token JWT | --cert CERT KEY)
"""

import json
import ssl
import sys

import httpx


def answer(response):
    headers = response.headers
    return {
        "status": response.status_code,
        "httpVersion": response.http_version,
        "requestId": headers.get("apns-request-id"),
        "apnsId": headers.get("apns-id"),
        "uniqueId": headers.get("apns-unique-id"),
        "channelId": headers.get("apns-channel-id"),
        "contentType": headers.get("content-type"),
        "body": response.text,
    }


def main():
    apns_port, channels_port, ca_file, mode, *credentials = sys.argv[1:]
    context = ssl.create_default_context(cafile=ca_file)
    headers = {}
    if mode == "--token":
        headers["authorization"] = f"bearer {credentials[0]}"
    else:
        context.load_cert_chain(credentials[0], credentials[1])
    with httpx.Client(http2=True, verify=context, headers=headers, timeout=10) as client:
        channels = f"https://localhost:{channels_port}/1/apps/com.example.app"
        created = client.post(f"{channels}/channels", content=json.dumps({"message-storage-policy": 0, "push-type": "LiveActivity"}))
        channel = created.headers.get("apns-channel-id", "")
        read = client.get(f"{channels}/channels", headers={"apns-channel-id": channel})
        listed = client.get(f"{channels}/all-channels")
        broadcast_url = f"https://localhost:{apns_port}/4/broadcasts/apps/com.example.app"
        broadcast_headers = {
            "apns-channel-id": channel,
            "apns-push-type": "liveactivity",
            "apns-priority": "10",
            "apns-expiration": "0",
        }
        update = json.dumps({"aps": {"timestamp": 1700000000, "event": "update", "content-state": {"score": "0-1"}}})
        broadcast = client.post(broadcast_url, headers=broadcast_headers, content=update)
        deleted = client.delete(f"{channels}/channels", headers={"apns-channel-id": channel})
        after_delete = client.post(broadcast_url, headers=broadcast_headers, content=update)
    print(json.dumps({
        "created": answer(created), "read": answer(read), "list": answer(listed), "broadcast": answer(broadcast),
        "deleted": answer(deleted), "afterDelete": answer(after_delete),
    }))


if __name__ == "__main__":
    main()
