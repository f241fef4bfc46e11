"""The wheel from dist/, pip-installed into a clean venv: the pytest plugin runs the binary the wheel put in the venv."""
import os, ssl, sysconfig

import httpx


def test_push_is_recorded(apns, apns_mock):
    assert "APNS_MOCK_BIN" not in os.environ
    assert apns_mock.binary == os.path.join(sysconfig.get_path("scripts"), "apns-mock")  # the wheel's copy
    device = apns.token()
    with httpx.Client(http2=True, verify=ssl.create_default_context(cafile=apns.ca_path)) as client:
        answer = client.post(f"{apns.apns_url}/3/device/{device}", json={"aps": {"alert": "from the wheel"}},
                             headers={"authorization": f"bearer {apns.provider.token()}",
                                      "apns-topic": "com.example.app", "apns-push-type": "alert"})
    assert (answer.status_code, answer.http_version) == (200, "HTTP/2"), answer.text
    [record] = apns.wait(token=device, payload__aps__alert="from the wheel")
    assert record["response"]["status"] == 200
