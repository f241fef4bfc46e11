"""A provider that retries what APNs will not accept: it sends a push, and when the answer is an
error it sends the very same request again (same apns-id, headers and payload) up to RETRIES
times, with no change. Prints one JSON object with every answer.

usage: python httpx_retry.py APNS_PORT CA_FILE JWT DEVICE_TOKEN APNS_ID PRIORITY RETRIES
"""

import json
import ssl
import sys

import httpx


def main():
    port, ca_file, jwt, device, apns_id, priority, retries = sys.argv[1:]
    context = ssl.create_default_context(cafile=ca_file)
    headers = {
        "authorization": f"bearer {jwt}",
        "apns-topic": "com.example.app",
        "apns-push-type": "alert",
        "apns-priority": priority,
        "apns-id": apns_id,
    }
    body = json.dumps({"aps": {"alert": {"title": "Retry", "body": "again and again"}}})
    answers = []
    with httpx.Client(http2=True, verify=context, timeout=10) as client:
        for _ in range(1 + int(retries)):
            response = client.post(f"https://localhost:{port}/3/device/{device}", headers=headers, content=body)
            reason = response.json().get("reason") if response.content else None
            answers.append({"status": response.status_code, "reason": reason, "httpVersion": response.http_version})
            if response.status_code == 200:
                break
    print(json.dumps({"answers": answers}))


main()
