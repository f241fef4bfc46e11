"""apns-mock under Testcontainers: ``ApnsMockContainer`` (needs ``pip install apns-mock[testcontainers]``).

::

    from apns_mock.testcontainers import ApnsMockContainer

    with ApnsMockContainer() as mock:            # the image `make image` builds: apns-mock:dev
        mock.apns_url, mock.ca_path              # where a provider pushes, the CA it trusts
        mock.client.wait(token=device)           # the admin API (apns_mock.Client)

The container serves APNs on 2197 (and 443), channel management on 2195, Web Push on 2199 and
the admin API on 2198, each published on a free host port. A subscription's endpoint names the
container's own address; ``WebPushSubscription.create(mock.client, endpoint_base=mock.webpush_url)``
gives one whose endpoint is the published port. It is ready when the image's health check says
healthy, or as soon as ``GET /health`` on the published admin port answers 200 (podman runs
health checks only on a systemd timer, so without systemd the check never runs). The CA is then
fetched from ``GET /v1/ca.pem`` into a temporary file: the image generates its CA at start and
ships none.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
import urllib.error
import urllib.request
from typing import Any, Optional

from testcontainers.core.container import DockerContainer
from testcontainers.core.wait_strategies import WaitStrategy

from ._client import Client

APNS_PORT = 2197
CHANNELS_PORT = 2195
ADMIN_PORT = 2198
WEBPUSH_PORT = 2199


class _HealthyOrHealthEndpoint(WaitStrategy):
    """Ready when the container's health check reports healthy or the admin ``/health`` answers 200;
    fails at once if the container exits or the health check reports unhealthy."""

    def __init__(self, port: int) -> None:
        super().__init__()
        self._port = port

    def wait_until_ready(self, container: Any) -> None:
        deadline = time.time() + self._startup_timeout
        url = None
        while True:
            wrapped = container.get_wrapped_container()
            wrapped.reload()
            state = wrapped.attrs.get("State", {})
            health = (state.get("Health") or {}).get("Status")
            if health == "healthy":
                return
            if health == "unhealthy" or state.get("Status") in ("exited", "dead"):
                stdout, stderr = container.get_logs()
                raise RuntimeError(f"apns-mock container is {health or state.get('Status')}:\n"
                                   f"{stdout.decode(errors='replace')}{stderr.decode(errors='replace')}")
            try:
                url = url or f"http://{container.get_container_host_ip()}:{container.get_exposed_port(self._port)}/health"
                with urllib.request.urlopen(url, timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, OSError, ValueError):
                url = None  # the port mapping may not be known yet
            if time.time() > deadline:
                raise TimeoutError(f"apns-mock was not ready within {self._startup_timeout} s (health: {health})")
            time.sleep(self._poll_interval)


class ApnsMockContainer(DockerContainer):
    """The apns-mock image as a Testcontainers container, with the properties of :class:`apns_mock.Mock`.

    ``image`` defaults to ``apns-mock:dev`` (``make image``); ``admin_token`` sets
    ``APNS_MOCK_ADMIN_TOKEN`` in the container and makes ``client`` send it. The image's command
    binds port 443 too, which a non-root process may do only with
    ``net.ipv4.ip_unprivileged_port_start=0``: Docker sets it in every container, podman does not,
    so the container is created with that sysctl.
    """

    def __init__(self, image: str = "apns-mock:dev", *, admin_token: Optional[str] = None,
                 startup_timeout: float = 60, **kwargs: Any) -> None:
        super().__init__(image, **kwargs)
        self.admin_token = admin_token
        self.with_exposed_ports(APNS_PORT, CHANNELS_PORT, ADMIN_PORT, WEBPUSH_PORT)
        self.with_kwargs(sysctls={"net.ipv4.ip_unprivileged_port_start": "0"})
        if admin_token:
            self.with_env("APNS_MOCK_ADMIN_TOKEN", admin_token)
        self.waiting_for(_HealthyOrHealthEndpoint(ADMIN_PORT).with_startup_timeout(int(startup_timeout)))
        self.apns_url = ""
        self.channels_url = ""
        #: The Web Push listener on its published port.
        self.webpush_url = ""
        self.admin_url = ""
        self.ca_path = ""
        self._client: Optional[Client] = None
        self._directory: Optional[str] = None

    def start(self) -> "ApnsMockContainer":
        super().start()
        host = self.get_container_host_ip()
        self.apns_url = f"https://{host}:{self.get_exposed_port(APNS_PORT)}"
        self.channels_url = f"https://{host}:{self.get_exposed_port(CHANNELS_PORT)}"
        self.admin_url = f"http://{host}:{self.get_exposed_port(ADMIN_PORT)}"
        self.webpush_url = f"https://{host}:{self.get_exposed_port(WEBPUSH_PORT)}"
        self._client = Client(self.admin_url, token=self.admin_token)
        self._directory = tempfile.mkdtemp(prefix="apns-mock-container-")
        self.ca_path = os.path.join(self._directory, "ca.pem")
        with open(self.ca_path, "w") as handle:
            handle.write(self._client.ca_pem())
        return self

    @property
    def client(self) -> Client:
        """The admin client (:class:`apns_mock.Client`)."""
        if self._client is None:
            raise RuntimeError("the container is not started")
        return self._client

    def stop(self, force: bool = True, delete_volume: bool = True) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
        if self._directory:
            shutil.rmtree(self._directory, ignore_errors=True)
            self._directory = None
        super().stop(force=force, delete_volume=delete_volume)
