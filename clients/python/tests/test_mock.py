"""Mock and Remote: starting, failing to start, stopping; server-wide operations on a server of their own."""

import os
import ssl

import httpx
import pytest

import apns_mock
from apns_mock import Mock, MockStartError
from conftest import provider_token


def test_a_server_that_does_not_start_raises_with_its_stderr():
    with pytest.raises(MockStartError) as raised:
        Mock(args=["--no-such-flag"]).start()
    assert "exited with status" in str(raised.value)
    assert "no-such-flag" in raised.value.stderr


def test_a_missing_binary_says_where_it_looked(tmp_path):
    with pytest.raises(MockStartError, match="apns-mock not found"):
        Mock(binary=tmp_path / "nothing")


def test_mock_with_an_admin_token_serves_modes_and_stops_on_exit():
    # Modes are server-wide, so this test has a server of its own.
    with Mock(admin_token="secret") as mock:
        with pytest.raises(apns_mock.AdminError) as refused:
            apns_mock.Client(mock.admin_url).modes()
        assert refused.value.status == 401 and refused.value.code == "unauthorized"
        assert mock.ca_path and os.path.exists(mock.ca_path)
        assert mock.channels_url.startswith("https://127.0.0.1:")
        assert mock.webpush_url == mock.client.info()["webPushUrl"] and mock.webpush_url.startswith("https://127.0.0.1:")
        mock.client.set_mode("unavailable")
        with httpx.Client(http2=True, verify=ssl.create_default_context(cafile=mock.ca_path)) as client:
            answer = client.post(f"{mock.apns_url}/3/device/{'ab' * 32}", content=b'{"aps":{"alert":"x"}}',
                                 headers={"authorization": f"bearer {provider_token()}", "apns-topic": "com.example.app"})
        assert answer.status_code == 503 and answer.json()["reason"] == "ServiceUnavailable"
        assert mock.client.clear_mode("unavailable")["unavailable"] is False
        assert mock.client.reset()["reset"] is True
        process = mock.process
    assert process.returncode is not None


def test_remote_reads_addresses_and_ca_from_the_admin_api(apns_mock):
    with apns_mock_remote(apns_mock.admin_url) as remote:
        assert remote.apns_url == apns_mock.apns_url
        assert remote.channels_url == apns_mock.channels_url
        assert remote.webpush_url == apns_mock.webpush_url
        assert open(remote.ca_path).read() == open(apns_mock.ca_path).read()


def apns_mock_remote(url):
    return apns_mock.Remote(url)


def test_a_server_that_prints_no_ready_line_in_time_is_stopped_and_raises_with_its_stderr(tmp_path):
    silent = tmp_path / "apns-mock"
    silent.write_text("#!/bin/sh\necho 'still starting' >&2\nexec sleep 30\n")
    silent.chmod(0o755)
    mock = Mock(binary=silent, start_timeout=0.5)
    with pytest.raises(MockStartError, match="no ready line within 0.5 s") as raised:
        mock.start()
    assert "still starting" in raised.value.stderr
