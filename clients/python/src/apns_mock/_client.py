"""A client of apns-mock's admin API: every operation of its document (generated, ``_generated.py``), and
the shorter names that call them."""

from __future__ import annotations

import json
import os
import pathlib
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union
from urllib.parse import quote, urlencode

import httpx

from ._errors import AdminError, WaitTimeout, dashboard_link
from ._events import EventBatch
from ._generated import GeneratedClient

Params = List[Tuple[str, str]]
Duration = Union[int, float, str]


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _duration(value: Duration) -> str:
    """A duration for a query string: a bare number means seconds, a string keeps its unit."""
    if isinstance(value, bool):
        raise TypeError("a duration is a number of seconds or a string such as '500ms'")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


Matcher = Union[Mapping[str, Any], Sequence[Tuple[str, Any]]]


def matcher_params(match: Optional[Matcher] = None, **fields: Any) -> Params:
    """The query parameters of a matcher, as the admin API reads them.

    Keyword arguments are the query's field names (``token``, ``tokenPrefix``, ``status``,
    ``pushType``, …); ``__`` stands for a dot, so ``payload__aps__alert__title="Hi"`` is
    ``payload.aps.alert.title=Hi``. A keyword argument cannot hold a dash: a header or payload key
    with one goes in ``match`` (``match={"headers.apns-collapse-id": "news"}``).
    ``match`` takes the same fields spelled exactly as in a query string, as a mapping or as
    ``(name, value)`` pairs (a name may then repeat). A list or tuple value
    repeats the parameter (each repetition is one more condition); ``None`` leaves it out;
    booleans are ``true``/``false``.
    """
    params: Params = []
    items: List[Tuple[str, Any]] = list(match.items() if isinstance(match, Mapping) else (match or ()))
    items += [(name.replace("__", "."), value) for name, value in fields.items()]
    for name, value in items:
        if value is None:
            continue
        if isinstance(value, (list, tuple)):
            params += [(name, _text(v)) for v in value]
        elif isinstance(value, Mapping):
            # {"payload": {"aps": {"badge": 3}}} → payload.aps.badge=3
            params += matcher_params({f"{name}.{k}": v for k, v in value.items()})
        else:
            params.append((name, _text(value)))
    return params


def query_string(params: Params) -> str:
    """A query string as the admin API reads it: ``%20`` for a space (a ``+`` is a plus sign there)."""
    return urlencode(params, quote_via=quote)


def _quote_path(segment: str) -> str:
    """A path segment, percent-encoded (a channel id's ``/`` and ``+`` included)."""
    return quote(segment, safe="")


class Client(GeneratedClient):
    """The admin API of one apns-mock server.

    ``admin_url`` is the admin API's base (``http://127.0.0.1:2198``); ``token`` the server's
    ``--admin-token`` when it has one (sent as ``Authorization: Bearer``). Every operation of the
    admin API's document is a method, generated from it (:class:`GeneratedClient`: named as its
    operationId in snake_case, ``list_deliveries``, ``put_device``, ``refuse_tls``); the shorter
    names below (``deliveries``, ``wait``, ``add_fault``, …) call them. An error answer raises
    :class:`AdminError` with the API's ``code`` and ``message``. Use it as a context manager, or
    call :meth:`close`.
    """

    # Operations that may take longer than the client's timeout: verify waits up to each
    # expectation's `within` (at most 300 s).
    _TIMEOUTS = {"verify": 330.0}

    def __init__(self, admin_url: str, token: Optional[str] = None, *, timeout: float = 30.0) -> None:
        self.admin_url = admin_url.rstrip("/")
        self.token = token
        headers = {"authorization": f"Bearer {token}"} if token else {}
        self._http = httpx.Client(base_url=self.admin_url, headers=headers, timeout=timeout)
        self._after_reset: List[Callable[["Client"], Any]] = []

    # -- plumbing -------------------------------------------------------------------------------

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"apns_mock.Client({self.admin_url!r})"

    @staticmethod
    def _raise_for(response: httpx.Response) -> None:
        if response.status_code < 400:
            return
        code, message = "http", response.text.strip() or response.reason_phrase
        try:
            error = response.json()["error"]
            code, message = error["code"], error["message"]
        except Exception:
            pass
        request = response.request
        raise AdminError(response.status_code, code, message, request.method, request.url.path)

    def _request(self, method: str, path: str, *, params: Optional[Params] = None, body: Any = None,
                 timeout: Optional[float] = None, ok: Sequence[int] = (),
                 headers: Optional[Mapping[str, str]] = None) -> httpx.Response:
        kwargs: Dict[str, Any] = {}
        if params:
            path = f"{path}?{query_string(params)}"
        if body is not None:
            kwargs["json"] = body
        if timeout is not None:
            kwargs["timeout"] = timeout
        if headers:
            kwargs["headers"] = dict(headers)
        response = self._http.request(method, path, **kwargs)
        if response.status_code not in ok:
            self._raise_for(response)
        return response

    def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self._request(method, path, **kwargs)
        return response.json() if response.content else None

    def _operation(self, operation_id: str, method: str, path: str, params: List[Tuple[str, Any]],
                   body: Any, **options: Any) -> Any:
        """One operation of the document (what every generated method calls): its answer's JSON,
        its text when it is not JSON (``/v1/ca.pem``, ``/metrics``, the document), None when
        empty (204). ``waitForDeliveries`` raises :class:`WaitTimeout` on 408; ``deliveryEvents``
        gives an iterator over the stream (:meth:`events`)."""
        headers = {name: _text(value) for name, value in (options.pop("headers", None) or {}).items()
                   if value is not None}
        if operation_id == "waitForDeliveries":
            return self._wait(params)
        if operation_id == "deliveryEvents":
            return self._events(matcher_params(params), headers, options.pop("read_timeout", None))
        options.setdefault("timeout", self._TIMEOUTS.get(operation_id))
        response = self._request(method, path, params=matcher_params(params), body=body, headers=headers, **options)
        if not response.content:
            return None
        if response.headers.get("content-type", "").split(";")[0].strip().endswith("json"):
            return response.json()
        return response.text

    def _wait(self, params: List[Tuple[str, Any]]) -> Any:
        values = dict(params)
        count = values.get("count")
        timeout = values.get("timeout")
        query = [(name, _duration(value) if name == "timeout" and value is not None else value)
                 for name, value in params]
        seconds = _seconds(timeout if timeout is not None else 10)
        response = self._request("GET", "/v1/deliveries/wait", params=matcher_params(query), timeout=seconds + 30,
                                 ok=(408,))
        answer = response.json()
        if response.status_code == 408:
            matcher = query_string(matcher_params([(n, v) for n, v in params
                                                   if n not in ("count", "timeout", "since", "before")]))
            raise WaitTimeout(1 if count is None else count, 10 if timeout is None else timeout, matcher,
                              answer.get("deliveries", []), answer.get("nearMisses", []),
                              dashboard_link(self.admin_url, matcher), answer.get("explanation"))
        return answer

    def dashboard_link(self, match: Optional[Matcher] = None, **fields: Any) -> str:
        """The dashboard (``GET /``) filtered to the records that match."""
        return dashboard_link(self.admin_url, query_string(matcher_params(match, **fields)))

    # -- server ---------------------------------------------------------------------------------
    # health(), info() and metrics() are the generated methods, under the same names.

    def ca_pem(self) -> str:
        """``GET /v1/ca.pem``: the CA certificate (PEM) a client trusts to reach the APNs ports
        (:meth:`ca_certificate`)."""
        return self.ca_certificate()

    def openapi(self) -> str:
        """``GET /v1/openapi.yaml``: the admin API's OpenAPI 3.1 document (YAML text)
        (:meth:`open_api_document`)."""
        return self.open_api_document()

    def reset(self, close_connections: bool = False) -> Dict[str, Any]:  # type: ignore[override]
        """``POST /v1/reset``: back to the start-up state (records, runtime keys, devices, faults,
        modes). ``{"reset": true, "closedConnections": N}``. Then calls each :meth:`after_reset`
        callback."""
        answer = super().reset(closeConnections=True if close_connections else None)
        for callback in list(self._after_reset):
            callback(self)
        return answer

    def after_reset(self, callback: Callable[["Client"], Any]) -> None:
        """Calls ``callback(client)`` after each :meth:`reset` through this client: a full reset
        drops what was registered at run time (keys, devices), and :class:`Remote` registers its
        provider key again this way. A reset by another client or by ``apns-mock reset`` does
        not call it."""
        self._after_reset.append(callback)

    # -- deliveries -----------------------------------------------------------------------------

    def deliveries(self, *, since: Optional[int] = None, before: Optional[int] = None,
                   limit: Optional[int] = None, order: Optional[str] = None,
                   match: Optional[Matcher] = None, **fields: Any) -> List[Dict[str, Any]]:
        """``GET /v1/deliveries``: the records that match, as the API gives them
        (:meth:`list_deliveries`).

        Without ``limit`` every page is read (following ``next``); with it, one page of at most
        ``limit`` records. ``order="desc"`` gives the newest first.
        """
        matcher = matcher_params(match, **fields)
        records: List[Dict[str, Any]] = []
        while True:
            page = self.list_deliveries(match=matcher, since=since, before=before, limit=limit,
                                        order=order)  # type: ignore[arg-type]
            records += page["deliveries"]
            cursor = page.get("next")
            if limit is not None or cursor is None or not page["deliveries"]:
                return records
            if order == "desc":
                before = cursor
            else:
                since = cursor

    def delivery(self, apns_id: str) -> Dict[str, Any]:
        """``GET /v1/deliveries/{apnsId}``: the most recent record with this apns-id."""
        return self.get_delivery(apns_id)  # type: ignore[return-value]

    def preview(self, apns_id: str) -> Dict[str, Any]:
        """``GET /v1/deliveries/{apnsId}/preview``: what the device would show."""
        return self.get_delivery_preview(apns_id)  # type: ignore[return-value]

    def simulator_file(self, apns_id: str) -> Dict[str, Any]:
        """``GET /v1/deliveries/{apnsId}/simulator.apns``: the payload as an iOS Simulator file."""
        return self.get_delivery_simulator_file(apns_id)

    def delivery_log(self, unique_id: str) -> Dict[str, Any]:
        """``GET /v1/delivery-log/{uniqueId}``: a sandbox push's or a broadcast's delivery log by
        its ``apns-unique-id`` (``events``: received, stored, delivered, discarded)."""
        return self.get_delivery_log(unique_id)  # type: ignore[return-value]

    def delete_deliveries(self, match: Optional[Matcher] = None, **fields: Any) -> int:  # type: ignore[override]
        """``DELETE /v1/deliveries?<matcher>``: deletes the matching records (all without a
        matcher); returns how many."""
        return super().delete_deliveries(match=matcher_params(match, **fields))["deleted"]

    def wait(self, count: int = 1, timeout: Duration = 10, *, since: Optional[int] = None,
             before: Optional[int] = None, match: Optional[Matcher] = None,
             **fields: Any) -> List[Dict[str, Any]]:
        """``GET /v1/deliveries/wait``: the matching records once at least ``count`` exist
        (:meth:`wait_for_deliveries`).

        ``timeout`` is seconds or a string with a unit (``"500ms"``, at most 300 s). When it runs
        out, raises :class:`WaitTimeout` carrying the records that matched and the near misses.
        """
        answer = self.wait_for_deliveries(match=matcher_params(match, **fields), count=count,
                                          timeout=timeout, since=since, before=before)  # type: ignore[arg-type]
        return answer["deliveries"]  # type: ignore[return-value]

    def events(self, *, since: Optional[int] = None, last_event_id: Optional[int] = None,
               read_timeout: Optional[float] = None, behind: Optional[str] = None,
               match: Optional[Matcher] = None, **fields: Any) -> Iterator[Dict[str, Any]]:
        """``GET /v1/events``: an iterator over new matching records, live (Server-Sent Events)
        (:meth:`delivery_events`, with a read timeout).

        Each item is a record (a dict), or an :class:`EventBatch` when the reader fell behind
        (more than 10,000 records, or half the store, stored after its position): the server
        then summarises runs of records (``from``, ``to``, ``count``, ``byStatus``,
        ``byOutcome``, ``agedOut``) instead of sending each, until the reader is close again.
        ``behind="end"`` asks for the old way instead: every record one by one, and a reader
        so slow that records left the store gets :class:`AdminError` with code ``dropped``.
        A record sent while its answer was pending comes again once it is answered.
        ``since``/``last_event_id`` resume after that sequence number. The iterator ends when
        the server ends the stream; ``read_timeout`` (seconds) raises ``httpx.ReadTimeout`` when
        nothing arrives for that long. Close the iterator (``.close()``, or leave a ``for``
        loop) to end the stream.
        """
        params = matcher_params(match, **fields)
        if since is not None:
            params.append(("since", str(since)))
        if behind is not None:
            params.append(("behind", behind))
        headers = {"last-event-id": str(last_event_id)} if last_event_id is not None else {}
        return self._events(params, headers, read_timeout)

    def _events(self, params: Params, headers: Mapping[str, str],
                read_timeout: Optional[float]) -> Iterator[Dict[str, Any]]:
        timeout = httpx.Timeout(self._http.timeout.connect, read=read_timeout)
        path = f"/v1/events?{query_string(params)}" if params else "/v1/events"
        with self._http.stream("GET", path, headers=dict(headers), timeout=timeout) as response:
            if response.status_code >= 400:
                response.read()
                self._raise_for(response)
            event, data = "message", []  # type: str, List[str]
            for line in response.iter_lines():
                if line == "":
                    if data:
                        text = "\n".join(data)
                        if event == "dropped":
                            detail = json.loads(text)
                            raise AdminError(200, "dropped", f"the event stream missed {detail.get('missed')} records: {detail.get('reason')}",
                                             "GET", "/v1/events")
                        if event == "batch":
                            yield EventBatch(json.loads(text))
                        else:
                            yield json.loads(text)
                    event, data = "message", []
                elif line.startswith(":"):
                    continue
                else:
                    name, _, value = line.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    if name == "event":
                        event = value
                    elif name == "data":
                        data.append(value)

    def verify(self, expectations: Union[str, os.PathLike, Mapping[str, Any], Sequence[Any], None] = None, *,  # type: ignore[override]
               body: Any = None) -> Dict[str, Any]:
        """``POST /v1/verify``: checks expectations, waiting up to each one's ``within``.

        Takes an expectation file's path (its YAML read here; only its ``expect:`` list is sent,
        its ``setup:`` is not applied), or the body as a dict ``{"expect": [...]}`` or a list
        (or as ``body=``, as the generated method takes it).
        Returns ``{"passed": bool, "results": [...]}`` whether they passed or not.
        """
        if expectations is None:
            expectations = body
        if isinstance(expectations, (str, os.PathLike)):
            import yaml

            document = yaml.safe_load(pathlib.Path(expectations).read_text())
            sent: Any = {"expect": (document or {}).get("expect", [])} if isinstance(document, dict) else document
        elif isinstance(expectations, Mapping):
            sent = dict(expectations)
        else:
            sent = list(expectations or [])
        return super().verify(body=sent)  # type: ignore[return-value]

    # -- keys -----------------------------------------------------------------------------------

    def keys(self) -> List[Dict[str, Any]]:
        """``GET /v1/keys``: the registered token-signing keys."""
        return self.list_keys()["keys"]  # type: ignore[return-value]

    def key(self, key_id: str) -> Dict[str, Any]:
        """``GET /v1/keys/{keyId}``."""
        return self.get_key(key_id)  # type: ignore[return-value]

    def put_key(self, key_id: str, team_id: Optional[str] = None, *, public_key: Optional[str] = None,  # type: ignore[override]
                private_key: Optional[str] = None, environment: Optional[str] = None,
                topics: Optional[Sequence[str]] = None, related_key_id: Optional[str] = None,
                body: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
        """``PUT /v1/keys/{keyId}``: registers (or replaces) a key; give ``public_key`` (PEM) or
        ``private_key`` (the ``.p8`` text, of which only the public half is kept), or the whole
        ``body=`` as the API takes it."""
        sent: Dict[str, Any] = dict(body or {})
        for name, value in (("teamId", team_id), ("publicKey", public_key), ("privateKey", private_key),
                            ("environment", environment), ("topics", list(topics) if topics is not None else None),
                            ("relatedKeyId", related_key_id)):
            if value is not None:
                sent[name] = value
        return super().put_key(key_id, body=sent)  # type: ignore[arg-type, return-value]

    # delete_key(key_id) is the generated method.

    # -- devices --------------------------------------------------------------------------------

    def devices(self, page_size: int = 100000) -> List[Dict[str, Any]]:
        """``GET /v1/devices``: every registered device, ascending by token (the pages followed,
        ``page_size`` devices a call; ``list_devices(after=..., limit=...)`` reads one page)."""
        devices: List[Dict[str, Any]] = []
        after: Optional[str] = None
        while True:
            page = self.list_devices(after=after, limit=page_size)
            devices.extend(page["devices"])  # type: ignore[arg-type]
            after = page.get("nextAfter")
            if after is None:
                return devices

    def device(self, token: str) -> Dict[str, Any]:
        """``GET /v1/devices/{token}``."""
        return self.get_device(token)  # type: ignore[return-value]

    def register_device(self, token: str, *, topic: Optional[str] = None, environment: Optional[str] = None,
                        locale: Optional[str] = None, state: Optional[str] = None,
                        unregistered_at: Optional[int] = None, expired_at: Optional[int] = None,
                        presence: Optional[str] = None, until: Optional[int] = None, for_: Optional[Duration] = None,
                        periods: Optional[List[Dict[str, Any]]] = None, notifications: Optional[str] = None,
                        installed: Optional[bool] = None, uninstalled_at: Optional[int] = None,
                        uninstall_grace: Optional[Duration] = None,
                        background_pushes_per_hour: Optional[int] = None) -> Dict[str, Any]:
        """``PUT /v1/devices/{token}``: registers (or replaces) a device; every field optional
        (``state``: ``active``, ``unregistered``, ``expired``). What becomes of accepted pushes:
        ``presence`` (``online``, ``offline``, ``lowPower``) with ``until`` (epoch ms) or ``for_``
        (a duration: the body's ``for``), or ``periods``; ``notifications`` (``enabled``,
        ``disabled``); ``installed`` (``False``: 200s discarded, then 410 after
        ``uninstall_grace``); ``background_pushes_per_hour`` (:meth:`put_device`)."""
        body: Dict[str, Any] = {}
        for name, value in (("topic", topic), ("environment", environment), ("locale", locale), ("state", state),
                            ("unregisteredAt", unregistered_at), ("expiredAt", expired_at), ("presence", presence),
                            ("until", until), ("for", None if for_ is None else _duration(for_)), ("periods", periods),
                            ("notifications", notifications), ("installed", installed),
                            ("uninstalledAt", uninstalled_at), ("uninstallGrace", None if uninstall_grace is None else _duration(uninstall_grace)),
                            ("backgroundPushesPerHour", background_pushes_per_hour)):
            if value is not None:
                body[name] = value
        return self.put_device(token, body=body)  # type: ignore[arg-type, return-value]

    # delete_device(token) is the generated method.

    def unregister_device(self, token: str, unregistered_at: Optional[int] = None, *,  # type: ignore[override]
                          body: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
        """``POST /v1/devices/{token}/unregister``: pushes to it get 410 ``Unregistered``."""
        if unregistered_at is not None:
            body = {**(body or {}), "unregisteredAt": unregistered_at}
        return super().unregister_device(token, body=body)  # type: ignore[arg-type, return-value]

    def expire_device(self, token: str, expired_at: Optional[int] = None, *,  # type: ignore[override]
                      body: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
        """``POST /v1/devices/{token}/expire``: pushes to it get 410 ``ExpiredToken``."""
        if expired_at is not None:
            body = {**(body or {}), "expiredAt": expired_at}
        return super().expire_device(token, body=body)  # type: ignore[arg-type, return-value]

    def device_notifications(self, token: str, limit: Optional[int] = None) -> Dict[str, Any]:  # type: ignore[override]
        """``GET /v1/devices/{token}/notifications``: what the device's user sees now: its
        ``notifications`` (delivered alerts, newest first, one per collapse id; at most ``limit``,
        100 by default), ``badges`` per topic, ``liveActivities``, and what APNs holds for it
        (``stored``), with its ``conditions``. A token nobody pushed to has an empty view."""
        return super().device_notifications(token, limit=limit)  # type: ignore[return-value]

    # -- channels -------------------------------------------------------------------------------

    def channels(self, *, bundle_id: Optional[str] = None, environment: Optional[str] = None,
                 token: Optional[str] = None) -> List[Dict[str, Any]]:
        """``GET /v1/channels``: broadcast channels, oldest first, with their subscribers."""
        return self.list_channels(bundleId=bundle_id, environment=environment,  # type: ignore[arg-type]
                                  token=token)["channels"]  # type: ignore[return-value]

    def create_channel(self, bundle_id: Optional[str] = None, environment: str = "sandbox", *,  # type: ignore[override]
                       message_storage_policy: Optional[int] = None, push_type: Optional[str] = None,
                       channel_id: Optional[str] = None, body: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
        """``POST /v1/channels``: creates a broadcast channel (201, the channel with its
        ``channelId``); or give the whole ``body=`` as the API takes it."""
        if body is not None and bundle_id is None:
            sent: Dict[str, Any] = dict(body)
        else:
            sent = {"bundleId": bundle_id, "environment": environment}
        for name, value in (("messageStoragePolicy", message_storage_policy), ("pushType", push_type),
                            ("channelId", channel_id)):
            if value is not None:
                sent[name] = value
        return super().create_channel(body=sent)  # type: ignore[arg-type, return-value]

    def channel(self, channel_id: str) -> Dict[str, Any]:
        """``GET /v1/channels/{channelId}``."""
        return self.get_channel(channel_id)  # type: ignore[return-value]

    # delete_channel(channel_id) is the generated method.

    def subscribe(self, channel_id: str, token: str) -> Dict[str, Any]:
        """``PUT /v1/channels/{channelId}/devices/{token}``: subscribes the device's Live Activity
        to the channel; returns the channel (with its ``subscribers`` count)."""
        return self.subscribe_device(channel_id, token)  # type: ignore[return-value]

    def subscribe_many(self, channel_id: str, tokens: List[str]) -> Dict[str, Any]:
        """``POST /v1/channels/{channelId}/devices``: subscribes every device of ``tokens`` at
        once; returns ``{"channelId", "added", "subscribers"}``."""
        return self.subscribe_devices(channel_id, body={"tokens": list(tokens)})  # type: ignore[return-value]

    def unsubscribe(self, channel_id: str, token: str) -> None:
        """``DELETE /v1/channels/{channelId}/devices/{token}``."""
        self.unsubscribe_device(channel_id, token)

    def broadcast_capability(self, bundle_id: str) -> Dict[str, Any]:
        """``GET /v1/apps/{bundleId}/broadcast``: ``{"bundleId", "enabled"}``."""
        return self.get_broadcast_capability(bundle_id)  # type: ignore[return-value]

    def set_broadcast_capability(self, bundle_id: str, enabled: Optional[bool] = None, *,  # type: ignore[override]
                                 body: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
        """``PUT /v1/apps/{bundleId}/broadcast``: off deletes the app's channels."""
        sent = dict(body or {})
        if enabled is not None:
            sent["enabled"] = enabled
        return super().set_broadcast_capability(bundle_id, body=sent)  # type: ignore[arg-type, return-value]

    # -- faults ---------------------------------------------------------------------------------

    def faults(self) -> List[Dict[str, Any]]:
        """``GET /v1/faults``: the rules in the order they are tried, with ``hits`` and ``matches``."""
        return self.list_faults()["faults"]  # type: ignore[return-value]

    def fault(self, fault_id: str) -> Dict[str, Any]:
        """``GET /v1/faults/{id}``."""
        return self.get_fault(fault_id)  # type: ignore[return-value]

    def add_fault(self, rule: Optional[Mapping[str, Any]] = None, *, id: Optional[str] = None,  # type: ignore[override]
                  match: Optional[Mapping[str, Any]] = None, select: Optional[Mapping[str, Any]] = None,
                  action: Optional[Mapping[str, Any]] = None, body: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
        """``POST /v1/faults``: adds a rule after the others; returns it with its ``id``.

        Give the rule as the API's JSON (``rule={"match": …, "select": …, "action": …}``, or
        ``body=``) or its parts as keyword arguments (``match={"token": t}, select={"first": 2},
        action={"respond": {"status": 503, "reason": "ServiceUnavailable"}}``). An ``id`` in use
        raises :class:`AdminError` ``faultRuleExists`` (:meth:`put_fault` replaces).
        """
        sent = _rule(rule if rule is not None else body, id=id, match=match, select=select, action=action)
        return super().add_fault(body=sent)  # type: ignore[arg-type, return-value]

    def put_fault(self, fault_id: str, rule: Optional[Mapping[str, Any]] = None, *,  # type: ignore[override]
                  match: Optional[Mapping[str, Any]] = None, select: Optional[Mapping[str, Any]] = None,
                  action: Optional[Mapping[str, Any]] = None, body: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
        """``PUT /v1/faults/{id}``: creates the rule with this id, or replaces it in place (its
        counts start again)."""
        sent = _rule(rule if rule is not None else body, match=match, select=select, action=action)
        return super().put_fault(fault_id, body=sent)  # type: ignore[arg-type, return-value]

    # delete_fault(fault_id) is the generated method.

    def delete_faults(self) -> int:  # type: ignore[override]
        """``DELETE /v1/faults``: removes every rule; returns how many."""
        return super().delete_faults()["removed"]  # type: ignore[index]

    # -- behaviors and modes --------------------------------------------------------------------

    def behaviors(self) -> List[Dict[str, Any]]:
        """``GET /v1/behaviors``: the APNs behaviors switched on."""
        return self.list_behaviors()["behaviors"]  # type: ignore[return-value]

    def enable_behavior(self, name: Optional[str] = None, lockout: Optional[Duration] = None, *,  # type: ignore[override]
                        body: Optional[Mapping[str, Any]] = None) -> List[Dict[str, Any]]:
        """``POST /v1/behaviors``: switches a behavior on (``lockout`` for ``token-update-lockout``);
        returns the behaviors now on."""
        sent: Dict[str, Any] = dict(body or {})
        if name is not None:
            sent["name"] = name
        if lockout is not None:
            sent["lockout"] = _duration(lockout)
        return super().enable_behavior(body=sent)["behaviors"]  # type: ignore[arg-type, return-value]

    # disable_behavior(name) is the generated method.

    def modes(self) -> Dict[str, Any]:
        """``GET /v1/modes``: ``{"shutdown", "unavailable", "unavailableUntil", "refuseTls", "throttle"}``."""
        return self.get_modes()  # type: ignore[return-value]

    def set_mode(self, mode: str, *, for_: Optional[Duration] = None, count: Optional[int] = None) -> Dict[str, Any]:
        """``POST /v1/modes/{mode}``: ``shutdown`` (:meth:`start_shutdown`), ``unavailable``
        (``for_="30s"``, :meth:`start_unavailable`) or ``refuse-tls`` (``count=N``,
        :meth:`refuse_tls`). Server-wide: every client of the server sees it."""
        duration = None if for_ is None else _duration(for_)
        if mode == "shutdown" and for_ is None and count is None:
            return self.start_shutdown()  # type: ignore[return-value]
        if mode == "unavailable" and count is None:
            return self.start_unavailable(for_=duration)  # type: ignore[arg-type, return-value]
        if mode == "refuse-tls" and for_ is None:
            return self.refuse_tls(count=count)  # type: ignore[return-value]
        params: Params = [(n, v) for n, v in (("for", duration), ("count", None if count is None else str(count)))
                          if v is not None]
        return self._json("POST", f"/v1/modes/{_quote_path(mode)}", params=params)

    def clear_mode(self, mode: str) -> Dict[str, Any]:
        """``DELETE /v1/modes/{mode}`` (:meth:`stop_shutdown`, :meth:`stop_unavailable`,
        :meth:`stop_refusing_tls`)."""
        stop = {"shutdown": self.stop_shutdown, "unavailable": self.stop_unavailable,
                "refuse-tls": self.stop_refusing_tls}.get(mode)
        if stop is not None:
            return stop()  # type: ignore[return-value]
        return self._json("DELETE", f"/v1/modes/{_quote_path(mode)}")

    # -- the clock -------------------------------------------------------------------------------

    def clock(self) -> Dict[str, Any]:
        """``GET /v1/clock``: ``{"now", "offsetMs", "mode"}``, the server's clock (epoch ms)."""
        return self.get_clock()  # type: ignore[return-value]

    def move_clock(self, *, advance: Optional[Duration] = None, set: Optional[int] = None,  # type: ignore[override]
                   body: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
        """``POST /v1/clock``: forward by ``advance`` (``"61m"``), or to ``set`` (epoch ms, not before
        the newest record), or the ``body=`` as the API takes it. Server-wide: record times, token
        ages, fault windows and throttles read it."""
        if body is not None and advance is None and set is None:
            return super().move_clock(body=dict(body))  # type: ignore[arg-type, return-value]
        if (advance is None) == (set is None):
            raise ValueError("move_clock takes one of advance= and set=")
        sent: Dict[str, Any] = {"advance": _duration(advance)} if advance is not None else {"set": set}
        return super().move_clock(body=sent)  # type: ignore[arg-type, return-value]

    # reset_clock() is the generated method.

    # -- connections and report -----------------------------------------------------------------

    def connections(self, state: Optional[str] = None) -> List[Dict[str, Any]]:
        """``GET /v1/connections``: live APNs connections then recently closed ones (``state="open"``:
        live ones only), with their events."""
        return self.list_connections(state=state or None)["connections"]  # type: ignore[arg-type, return-value]

    def report(self, *, since: Optional[int] = None, until: Optional[int] = None,
               window: Optional[Duration] = None) -> Dict[str, Any]:
        """``GET /v1/report``: the provider-behaviour report (per provider identity, with findings)."""
        return self.get_report(since=since, until=until,  # type: ignore[arg-type, return-value]
                               window=None if window is None else _duration(window))


def _rule(rule: Optional[Mapping[str, Any]], **parts: Any) -> Dict[str, Any]:
    body: Dict[str, Any] = dict(rule or {})
    for name, value in parts.items():
        if value is not None:
            body[name] = dict(value) if isinstance(value, Mapping) else value
    return body


def _seconds(duration: Duration) -> float:
    if isinstance(duration, (int, float)):
        return float(duration)
    text = duration.strip()
    for suffix, factor in (("ms", 0.001), ("s", 1.0), ("m", 60.0), ("h", 3600.0)):
        if text.endswith(suffix):
            try:
                return float(text[: -len(suffix)]) * factor
            except ValueError:
                break
    try:
        return float(text)
    except ValueError:
        return 300.0
