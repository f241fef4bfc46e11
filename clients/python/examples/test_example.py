import asyncio, pathlib, ssl, urllib.parse
import pytest
from aioapns import APNs, NotificationRequest
from aioapns.connection import APNsDevelopmentClientProtocol as Sandbox

KEY = (pathlib.Path(__file__).parents[3] / "certs" / "AuthKey_ABC123DEFG.p8").read_text()  # the sample key


@pytest.mark.parametrize("title", ["Welcome", "Hello", "Hi", "Hey"])
def test_welcome_push(apns, title):
    url = urllib.parse.urlsplit(apns.apns_url)
    Sandbox.APNS_SERVER, Sandbox.APNS_PORT = url.hostname, url.port  # aioapns has no host option
    device = apns.token()

    async def send():
        client = APNs(key=KEY, key_id="ABC123DEFG", team_id="DEF123GHIJ", topic="com.example.app",
                      use_sandbox=True, ssl_context=ssl.create_default_context(cafile=apns.ca_path))
        return await client.send_notification(NotificationRequest(device, {"aps": {"alert": {"title": title}}}))

    assert asyncio.run(send()).is_successful
    [record] = apns.wait(token=device, payload__aps__alert__title=title)
    assert record["response"]["status"] == 200
