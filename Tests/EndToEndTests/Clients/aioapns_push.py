"""Sends pushes with aioapns (PyPI) to apns-mock and prints one JSON line per result.

aioapns connects with its default TLS set-up, which offers no ALPN: the server must still
speak HTTP/2 (prior knowledge), as Apple's does.

usage: aioapns_push.py [--client-cert BUNDLE.pem] PORT CA_FILE KEY_FILE KEY_ID TEAM_ID TOPIC TOKEN APNS_ID [...]
With --client-cert the connection authenticates with that certificate (KEY_FILE, KEY_ID and
TEAM_ID are then ignored; pass "-").
"""

import asyncio
import json
import ssl
import sys

from aioapns import APNs, NotificationRequest
from aioapns.connection import APNsDevelopmentClientProtocol


async def main() -> None:
    arguments = sys.argv[1:]
    client_cert = None
    if arguments[:1] == ["--client-cert"]:
        client_cert = arguments[1]
        arguments = arguments[2:]
    port, ca_file, key_file, key_id, team_id, topic = arguments[:6]
    pairs = arguments[6:]
    # Point aioapns's sandbox host at the mock; the certificate names 127.0.0.1.
    APNsDevelopmentClientProtocol.APNS_SERVER = "127.0.0.1"
    APNsDevelopmentClientProtocol.APNS_PORT = int(port)
    context = ssl.create_default_context(cafile=ca_file)
    if client_cert:
        client = APNs(
            client_cert=client_cert,
            topic=topic,
            use_sandbox=True,
            ssl_context=context,
            max_connection_attempts=2,
        )
    else:
        with open(key_file) as handle:
            key = handle.read()
        client = APNs(
            key=key,
            key_id=key_id,
            team_id=team_id,
            topic=topic,
            use_sandbox=True,
            ssl_context=context,
            max_connection_attempts=2,
        )
    for token, apns_id in zip(pairs[0::2], pairs[1::2]):
        request = NotificationRequest(
            device_token=token,
            message={"aps": {"alert": {"title": "Hello", "body": "from aioapns"}, "badge": 1}},
            notification_id=apns_id,
        )
        result = await client.send_notification(request)
        print(
            json.dumps(
                {
                    "status": result.status,
                    "description": result.description,
                    "notificationId": result.notification_id,
                }
            ),
            flush=True,
        )


asyncio.run(main())
