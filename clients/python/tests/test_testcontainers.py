"""ApnsMockContainer. The container test needs a Docker-compatible engine and the image `make image`
builds (apns-mock:dev); it runs only with APNS_MOCK_TESTCONTAINERS=1 (`make test-image`, under
podman's Docker-compatible API with Ryuk disabled). The readiness wait is tested here without an
engine, against the session's server."""

import os
from urllib.parse import urlsplit

import httpx
import pytest

from conftest import httpx_push

needs_engine = pytest.mark.skipif(os.environ.get("APNS_MOCK_TESTCONTAINERS") != "1",
                                  reason="set APNS_MOCK_TESTCONTAINERS=1 with a container engine and apns-mock:dev")


class _FakeContainer:
    """What the wait strategy reads of a container: its state and its published admin port."""

    def __init__(self, admin_url, state):
        self.address = urlsplit(admin_url)
        self.attrs = {"State": state}

    def get_wrapped_container(self):
        return self

    def reload(self):
        pass

    def get_container_host_ip(self):
        return self.address.hostname

    def get_exposed_port(self, port):
        assert port == 2198
        return self.address.port

    def get_logs(self):
        return b"apns-mock: cannot listen\n", b""


def test_ready_when_health_answers_though_the_health_check_never_ran(apns_mock):
    from apns_mock.testcontainers import _HealthyOrHealthEndpoint

    container = _FakeContainer(apns_mock.admin_url, {"Status": "running", "Health": {"Status": "starting"}})
    _HealthyOrHealthEndpoint(2198).with_startup_timeout(5).wait_until_ready(container)


def test_an_exited_container_fails_the_wait_with_its_logs():
    from apns_mock.testcontainers import _HealthyOrHealthEndpoint

    container = _FakeContainer("http://127.0.0.1:9", {"Status": "exited"})
    with pytest.raises(RuntimeError, match="cannot listen"):
        _HealthyOrHealthEndpoint(2198).with_startup_timeout(5).wait_until_ready(container)


@needs_engine
@pytest.mark.testcontainers
def test_container_serves_a_push_and_its_record():
    from apns_mock import Scope
    from apns_mock.testcontainers import ApnsMockContainer

    with ApnsMockContainer(os.environ.get("APNS_MOCK_IMAGE", "apns-mock:dev"), admin_token="secret") as mock:
        assert mock.client.info()["version"]
        assert open(mock.ca_path).read().startswith("-----BEGIN CERTIFICATE-----")
        apns = Scope(mock.client, apns_url=mock.apns_url, ca_path=mock.ca_path)
        device = apns.token()
        answer = httpx_push(apns, device, {"aps": {"alert": {"title": "From a container"}}})
        assert answer.status_code == 200, answer.text
        [record] = apns.wait(token=device, payload__aps__alert__title="From a container")
        assert record["apnsId"] == answer.headers["apns-id"]
        # The token is required on the published admin port.
        assert httpx.get(f"{mock.admin_url}/v1/deliveries").status_code == 401
