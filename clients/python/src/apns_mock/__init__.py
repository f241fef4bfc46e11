"""apns-mock from Python: an admin client, a process runner, a pytest plugin and a Testcontainers module.

- :class:`Client` — the admin API, one method per route.
- :class:`Mock` — runs the ``apns-mock`` binary on free ports; :class:`Remote` — a server started elsewhere.
- :class:`Scope` — one test's view (what the pytest fixture ``apns`` gives).
- :class:`ProviderCredentials` — a token-signing key the server knows, and its ES256 provider tokens
  (``mock.provider``, ``apns.provider``).
- :class:`WebPushSubscription` — a Web Push subscription made for a test, with its VAPID key
  (``apns.webpush_subscription()``).
- ``apns_mock.testcontainers.ApnsMockContainer`` — the image under Testcontainers (optional extra).
"""

from ._client import Client, matcher_params
from ._errors import AdminError, MockStartError, WaitTimeout, dashboard_link, record_line
from ._events import EventBatch
from ._mock import Mock, Remote, find_binary, packaged_binary
from ._provider import ProviderCredentials
from ._scope import Scope
from ._webpush import WebPushSubscription

__all__ = [
    "AdminError",
    "Client",
    "EventBatch",
    "Mock",
    "MockStartError",
    "ProviderCredentials",
    "Remote",
    "Scope",
    "WaitTimeout",
    "WebPushSubscription",
    "dashboard_link",
    "find_binary",
    "matcher_params",
    "packaged_binary",
    "record_line",
]
__version__ = "0.9.0"
