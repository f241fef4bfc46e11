import asyncio, pathlib, ssl, urllib.parse
import pytest
from aioapns import APNs, NotificationRequest
from aioapns.connection import APNsDevelopmentClientProtocol as Sandbox

KEY = (pathlib.Path(__file__).parents[3] / "certs" / "AuthKey_ABC123DEFG.p8").read_text()  # the sample key


def send_welcome(apns_url, ca_path, device, title):
    """Your provider code: aioapns pushing an alert to `apns_url`, trusting the mock's CA."""
    url = urllib.parse.urlsplit(apns_url)
    Sandbox.APNS_SERVER, Sandbox.APNS_PORT = url.hostname, url.port  # aioapns has no host option

    async def send():
        client = APNs(key=KEY, key_id="ABC123DEFG", team_id="DEF123GHIJ", topic="com.example.app",
                      use_sandbox=True, ssl_context=ssl.create_default_context(cafile=ca_path))
        return await client.send_notification(NotificationRequest(device, {"aps": {"alert": {"title": title}}}))

    return asyncio.run(send())


@pytest.mark.parametrize("title", ["Welcome", "Hello", "Hi", "Hey"])
def test_welcome_push(apns, title):
    device = apns.token()
    assert send_welcome(apns.apns_url, apns.ca_path, device, title).is_successful
    [record] = apns.wait(token=device, payload__aps__alert__title=title)
    assert record["response"]["status"] == 200
