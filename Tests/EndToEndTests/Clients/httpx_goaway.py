"""One push with httpx (python-hyper's h2 underneath) into a connection that a fault rule ends
with GOAWAY. h2 closes its connection state when a GOAWAY arrives and takes any later frame as
a protocol error, so the order of the answer and the GOAWAY decides whether the push's answer
is read. Prints one JSON object: the status (null when none was read) and the error, if any.

usage: python httpx_goaway.py APNS_PORT CA_FILE JWT DEVICE_TOKEN APNS_ID
"""

import json
import ssl
import sys

import httpx


def main():
    port, ca_file, jwt, device, apns_id = sys.argv[1:]
    context = ssl.create_default_context(cafile=ca_file)
    headers = {
        "authorization": f"bearer {jwt}",
        "apns-topic": "com.example.app",
        "apns-push-type": "alert",
        "apns-id": apns_id,
    }
    body = json.dumps({"aps": {"alert": {"title": "GOAWAY", "body": "answered once"}}})
    result = {"status": None, "apnsId": None, "error": None}
    with httpx.Client(http2=True, verify=context, timeout=10) as client:
        try:
            response = client.post(f"https://localhost:{port}/3/device/{device}", headers=headers, content=body)
            result["status"] = response.status_code
            result["apnsId"] = response.headers.get("apns-id")
        except httpx.HTTPError as error:
            result["error"] = f"{type(error).__name__}: {error}"
    print(json.dumps(result))


main()
