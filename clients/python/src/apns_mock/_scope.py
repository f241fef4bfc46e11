"""One test's view of a shared apns-mock: its own device tokens, records, faults, channels and Web
Push subscriptions."""

from __future__ import annotations

import copy
import os
import pathlib
import secrets
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Set, Union

from ._client import Client, Duration, Matcher, Params, matcher_params, query_string
from ._errors import dashboard_link
from ._provider import ProviderCredentials
from ._webpush import ApplicationServerKey, WebPushSubscription

PREFIX_DIGITS = 16


class Scope:
    """The operations of :class:`Client`, limited to one test.

    Every device token from :meth:`token` starts with this scope's random ``prefix``
    (16 hex digits, then 48 random ones), so one ``tokenPrefix`` condition names every push of the
    test. Each query, wait, event stream, expectation check and fault rule made through it gets
    that condition added, unless it names a ``channelId`` or a ``subscriptionId`` (channel and Web
    Push subscription ids are issued at random, so they isolate too: a broadcast's own record
    carries no device token, and a web push's names its subscription). Fault rule ids given here are
    stored as ``<prefix>.<id>`` (so two tests may both name a rule ``outage``), and ``faultId``
    conditions are translated the same way. :meth:`reset` deletes only this test's records,
    rules, devices, channels and Web Push subscriptions, with ``DELETE /v1/deliveries?tokenPrefix=…``.

    Server-wide operations (modes, behaviors, keys, the report, a full reset) are not scoped and
    not offered here: use ``scope.client`` for them, knowing that parallel tests see them too.

    ``provider`` is the session's provider credentials (:class:`ProviderCredentials`: ``key_path``,
    ``key_id``, ``team_id``, ``token()``), the same for every test: the server knows the key.
    """

    def __init__(self, client: Client, *, apns_url: str = "", channels_url: str = "", ca_path: str = "",
                 prefix: Optional[str] = None, provider: Optional[ProviderCredentials] = None,
                 webpush_url: str = "") -> None:
        self.client = client
        self.provider = provider
        self.apns_url = apns_url
        self.channels_url = channels_url
        #: The Web Push listener (``webPushUrl`` of ``GET /v1/info``): subscriptions' endpoints start with it.
        self.webpush_url = webpush_url
        self.ca_path = ca_path
        self.admin_url = client.admin_url
        self.prefix = (prefix or secrets.token_hex(PREFIX_DIGITS // 2)).lower()
        self.tokens: List[str] = []
        self.channel_ids: List[str] = []
        #: The ids of the Web Push subscriptions :meth:`webpush_subscription` made, oldest first.
        self.webpush_subscription_ids: List[str] = []
        self._fault_ids: List[str] = []
        self._devices: Set[str] = set()

    def __repr__(self) -> str:
        return f"apns_mock.Scope(prefix={self.prefix!r}, admin_url={self.admin_url!r})"

    # -- tokens ---------------------------------------------------------------------------------

    def token(self) -> str:
        """A fresh device token: 64 lower-case hex digits, this scope's prefix then random ones."""
        value = self.prefix + secrets.token_hex((64 - len(self.prefix)) // 2)
        self.tokens.append(value)
        return value

    def _check_token(self, token: str) -> str:
        if not str(token).lower().startswith(self.prefix):
            raise ValueError(f"device token {token!r} is not one of this test's (apns.token() makes them; "
                             f"they start with {self.prefix})")
        return str(token)

    def fault_id(self, fault_id: str) -> str:
        """The id a rule named ``fault_id`` here has on the server: ``<prefix>.<fault_id>`` (an id
        the server gave a rule this scope added, ``f3``, stays as it is)."""
        if fault_id in self._fault_ids or fault_id.startswith(self.prefix + "."):
            return fault_id
        return f"{self.prefix}.{fault_id}"

    # -- scoping --------------------------------------------------------------------------------

    def _params(self, match: Optional[Matcher], fields: Dict[str, Any]) -> Params:
        params = matcher_params(match, **fields)
        scoped: Params = []
        by_channel = False
        for name, value in params:
            if name == "token":
                self._check_token(value)
            elif name == "tokenPrefix":
                if not (value.lower().startswith(self.prefix) or self.prefix.startswith(value.lower())):
                    raise ValueError(f"tokenPrefix {value!r} reaches beyond this test's tokens ({self.prefix}…)")
            elif name == "faultId":
                value = self.fault_id(value)
            elif name in ("channelId", "subscriptionId"):
                by_channel = True
            scoped.append((name, value))
        if not by_channel:
            _refuse_tokenless(dict(params).get("kind"))
            scoped.append(("tokenPrefix", self.prefix))
        return scoped

    def _match(self, match: Optional[Mapping[str, Any]]) -> Dict[str, Any]:
        """A matcher object (fault rules, expectations) limited to this test."""
        scoped = copy.deepcopy(dict(match or {}))
        if "token" in scoped:
            self._check_token(scoped["token"])
        if "faultId" in scoped:
            scoped["faultId"] = self.fault_id(str(scoped["faultId"]))
        if "channelId" in scoped or "subscriptionId" in scoped:
            return scoped
        _refuse_tokenless(scoped.get("kind"))
        given = str(scoped.get("tokenPrefix", "")).lower()
        if given and not given.startswith(self.prefix):
            if not self.prefix.startswith(given):
                raise ValueError(f"tokenPrefix {given!r} reaches beyond this test's tokens ({self.prefix}…)")
            given = ""
        scoped["tokenPrefix"] = given or self.prefix
        return scoped

    def query(self, match: Optional[Matcher] = None, **fields: Any) -> str:
        """The query string this scope sends for a matcher (with its ``tokenPrefix``)."""
        return query_string(self._params(match, fields))

    def dashboard_link(self, match: Optional[Matcher] = None, **fields: Any) -> str:
        """The dashboard filtered to this test's records (that also match)."""
        return dashboard_link(self.admin_url, self.query(match, **fields))

    # -- deliveries -----------------------------------------------------------------------------

    def deliveries(self, *, since: Optional[int] = None, before: Optional[int] = None, limit: Optional[int] = None,
                   order: Optional[str] = None, match: Optional[Matcher] = None,
                   **fields: Any) -> List[Dict[str, Any]]:
        """:meth:`Client.deliveries` of this test's records."""
        return self.client.deliveries(since=since, before=before, limit=limit, order=order,
                                      match=self._params(match, fields))

    def wait(self, count: int = 1, timeout: Duration = 10, *, since: Optional[int] = None,
             before: Optional[int] = None, match: Optional[Matcher] = None,
             **fields: Any) -> List[Dict[str, Any]]:
        """:meth:`Client.wait` for this test's records; a timeout raises :class:`WaitTimeout`,
        which fails the test with the near misses and a dashboard link."""
        return self.client.wait(count, timeout, since=since, before=before, match=self._params(match, fields))

    def events(self, *, since: Optional[int] = None, last_event_id: Optional[int] = None,
               read_timeout: Optional[float] = None, behind: Optional[str] = None,
               match: Optional[Matcher] = None, **fields: Any) -> Iterator[Dict[str, Any]]:
        """:meth:`Client.events` of this test's records."""
        return self.client.events(since=since, last_event_id=last_event_id, read_timeout=read_timeout,
                                  behind=behind, match=self._params(match, fields))

    def verify(self, expectations: Union[str, os.PathLike, Mapping[str, Any], Sequence[Any]]) -> Dict[str, Any]:
        """:meth:`Client.verify` with every expectation's (and step's) ``match`` limited to this test."""
        if isinstance(expectations, (str, os.PathLike)):
            import yaml

            document = yaml.safe_load(pathlib.Path(expectations).read_text())
            items = (document or {}).get("expect", []) if isinstance(document, dict) else document
        elif isinstance(expectations, Mapping):
            items = expectations.get("expect", [])
        else:
            items = list(expectations)
        scoped = []
        for item in copy.deepcopy(list(items)):
            if "match" in item or "steps" not in item:
                item["match"] = self._match(item.get("match"))
            for step in item.get("steps", []):
                step["match"] = self._match(step.get("match"))
            scoped.append(item)
        return self.client.verify({"expect": scoped})

    def reset(self) -> Dict[str, int]:
        """Deletes this test's records, fault rules, registered devices and created channels; the
        rest of the server is untouched. Returns how many of each went."""
        deleted = self.client.delete_deliveries(tokenPrefix=self.prefix)
        for channel_id in self.channel_ids:
            deleted += self.client.delete_deliveries(channelId=channel_id)
        for subscription_id in self.webpush_subscription_ids:
            deleted += self.client.delete_deliveries(subscriptionId=subscription_id)
        return {"deliveries": deleted, **self.cleanup()}

    def cleanup(self) -> Dict[str, int]:
        """Deletes the fault rules, devices and channels made through this scope and unsubscribes
        its Web Push subscriptions, keeping the records (the ``apns`` fixture calls it after each
        test). Returns how many of each went."""
        counts = {
            "faults": sum(_ignore_not_found(self.client.delete_fault, f) for f in self._fault_ids),
            "channels": sum(_ignore_not_found(self.client.delete_channel, c) for c in self.channel_ids),
            "devices": sum(_ignore_not_found(self.client.delete_device, t) for t in sorted(self._devices)),
            "webpush_subscriptions": sum(_ignore_not_found(self.client.delete_web_push_subscription, s)
                                         for s in self.webpush_subscription_ids),
        }
        self._fault_ids.clear()
        self.channel_ids.clear()
        self._devices.clear()
        self.webpush_subscription_ids.clear()
        return counts

    # -- faults ---------------------------------------------------------------------------------

    def faults(self) -> List[Dict[str, Any]]:
        """The fault rules this test added, as :meth:`Client.faults` lists them."""
        mine = set(self._fault_ids)
        return [rule for rule in self.client.faults() if rule["id"] in mine]

    def add_fault(self, rule: Optional[Mapping[str, Any]] = None, *, id: Optional[str] = None,
                  match: Optional[Mapping[str, Any]] = None, select: Optional[Mapping[str, Any]] = None,
                  action: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
        """:meth:`Client.add_fault`, its match limited to this test's tokens (or the channel it
        names) and its ``id`` stored as ``<prefix>.<id>``."""
        body = dict(rule or {})
        for name, value in (("id", id), ("match", match), ("select", select), ("action", action)):
            if value is not None:
                body[name] = value
        body["match"] = self._match(body.get("match"))
        if "id" in body:
            body["id"] = self.fault_id(str(body["id"]))
        created = self.client.add_fault(body)
        self._fault_ids.append(created["id"])
        return created

    def put_fault(self, fault_id: str, rule: Optional[Mapping[str, Any]] = None, *,
                  match: Optional[Mapping[str, Any]] = None, select: Optional[Mapping[str, Any]] = None,
                  action: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
        """:meth:`Client.put_fault` under ``<prefix>.<fault_id>``, its match limited to this test."""
        body = dict(rule or {})
        for name, value in (("match", match), ("select", select), ("action", action)):
            if value is not None:
                body[name] = value
        body["match"] = self._match(body.get("match"))
        real = self.fault_id(fault_id)
        body.pop("id", None)
        created = self.client.put_fault(real, body)
        if real not in self._fault_ids:
            self._fault_ids.append(real)
        return created

    def fault(self, fault_id: str) -> Dict[str, Any]:
        return self.client.fault(self.fault_id(fault_id))

    def delete_fault(self, fault_id: str) -> None:
        real = self.fault_id(fault_id)
        self.client.delete_fault(real)
        if real in self._fault_ids:
            self._fault_ids.remove(real)

    # -- devices and channels -------------------------------------------------------------------

    def register_device(self, token: str, **fields: Any) -> Dict[str, Any]:
        """:meth:`Client.register_device` for one of this test's tokens (deleted by :meth:`reset`)."""
        device = self.client.register_device(self._check_token(token), **fields)
        self._devices.add(device["token"])
        return device

    def unregister_device(self, token: str, unregistered_at: Optional[int] = None) -> Dict[str, Any]:
        device = self.client.unregister_device(self._check_token(token), unregistered_at)
        self._devices.add(device["token"])
        return device

    def expire_device(self, token: str, expired_at: Optional[int] = None) -> Dict[str, Any]:
        device = self.client.expire_device(self._check_token(token), expired_at)
        self._devices.add(device["token"])
        return device

    def device(self, token: str) -> Dict[str, Any]:
        return self.client.device(self._check_token(token))

    def device_notifications(self, token: str, limit: Optional[int] = None) -> Dict[str, Any]:
        """:meth:`Client.device_notifications` for one of this test's tokens."""
        return self.client.device_notifications(self._check_token(token), limit)

    def create_channel(self, bundle_id: str, environment: str = "sandbox", **fields: Any) -> Dict[str, Any]:
        """:meth:`Client.create_channel`; the channel is this test's (deleted by :meth:`reset`)."""
        channel = self.client.create_channel(bundle_id, environment, **fields)
        self.channel_ids.append(channel["channelId"])
        return channel

    def adopt_channel(self, channel_id: str) -> str:
        """Counts a channel the code under test created (over the channel-management API) as this
        test's, so :meth:`reset` deletes it and its records."""
        if channel_id not in self.channel_ids:
            self.channel_ids.append(channel_id)
        return channel_id

    def subscribe(self, channel_id: str, token: str) -> Dict[str, Any]:
        return self.client.subscribe(channel_id, self._check_token(token))

    def subscribe_many(self, channel_id: str, tokens: List[str]) -> Dict[str, Any]:
        return self.client.subscribe_many(channel_id, [self._check_token(token) for token in tokens])

    def unsubscribe(self, channel_id: str, token: str) -> None:
        self.client.unsubscribe(channel_id, self._check_token(token))

    # -- Web Push -------------------------------------------------------------------------------

    def webpush_subscription(self, application_server_key: Optional[ApplicationServerKey] = None, *,
                             origin: Optional[str] = None,
                             expiration_time: Optional[int] = None,
                             device: Optional[Mapping[str, Any]] = None) -> WebPushSubscription:
        """A Web Push subscription for this test, made by the mock as a browser makes one
        (``POST /v1/webpush/subscriptions``) and unsubscribed when the test ends (``DELETE``: a
        push to it is then answered 410).

        Without ``application_server_key`` a P-256 VAPID key pair is generated for the test: the
        answer's ``vapid_private_key`` is what the application server under test signs with. Or
        give the application server's own key: its base64url public key (65-byte uncompressed
        point), those bytes, or a ``cryptography`` EC key. ``origin`` is the site that subscribed;
        ``expiration_time`` (epoch milliseconds) when it stops taking pushes. ``device`` is its
        browser's conditions from the start (``{"presence": "offline"}``: pushes are held, with
        ``delivery`` ``stored``, until ``subscription.set_device(presence="online")``).

        Its pushes are records of kind ``webPush`` found by ``subscriptionId``:
        ``apns.wait(kind="webPush", subscriptionId=subscription.id)``.
        """
        subscription = WebPushSubscription.create(self.client, application_server_key, origin=origin,
                                                  expiration_time=expiration_time, device=device)
        self.webpush_subscription_ids.append(subscription.id)
        return subscription


def _refuse_tokenless(kind: Any) -> None:
    """Broadcasts, channel requests and web pushes carry no device token: a token condition would match none."""
    if kind in ("broadcast", "channel"):
        raise ValueError(f"records of kind {kind!r} carry no device token, so this test's scope cannot name them "
                         "by token: add channelId=<one of its channels>, or use apns.client for a server-wide query")
    if kind == "webPush":
        raise ValueError("records of kind 'webPush' name a Web Push subscription, not a device token, so this "
                         "test's scope cannot name them by token: add subscriptionId=<apns.webpush_subscription().id>, "
                         "or use apns.client for a server-wide query")


def _ignore_not_found(call: Any, *args: Any) -> int:
    from ._errors import AdminError

    try:
        call(*args)
        return 1
    except AdminError as error:
        if error.status == 404:
            return 0
        raise
