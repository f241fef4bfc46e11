"""A client of apns-mock's admin API: one method per documented route."""

from __future__ import annotations

import json
import os
import pathlib
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union
from urllib.parse import quote, urlencode

import httpx

from ._errors import AdminError, WaitTimeout, dashboard_link
from ._events import EventBatch

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


class Client:
    """The admin API of one apns-mock server.

    ``admin_url`` is the admin API's base (``http://127.0.0.1:2198``); ``token`` the server's
    ``--admin-token`` when it has one (sent as ``Authorization: Bearer``). Every method is one
    admin route; an error answer raises :class:`AdminError` with the API's ``code`` and
    ``message``. Use it as a context manager, or call :meth:`close`.
    """

    def __init__(self, admin_url: str, token: Optional[str] = None, *, timeout: float = 30.0) -> None:
        self.admin_url = admin_url.rstrip("/")
        self.token = token
        headers = {"authorization": f"Bearer {token}"} if token else {}
        self._http = httpx.Client(base_url=self.admin_url, headers=headers, timeout=timeout)

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
                 timeout: Optional[float] = None, ok: Sequence[int] = ()) -> httpx.Response:
        kwargs: Dict[str, Any] = {}
        if params:
            path = f"{path}?{query_string(params)}"
        if body is not None:
            kwargs["json"] = body
        if timeout is not None:
            kwargs["timeout"] = timeout
        response = self._http.request(method, path, **kwargs)
        if response.status_code not in ok:
            self._raise_for(response)
        return response

    def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self._request(method, path, **kwargs)
        return response.json() if response.content else None

    def dashboard_link(self, match: Optional[Matcher] = None, **fields: Any) -> str:
        """The dashboard (``GET /``) filtered to the records that match."""
        return dashboard_link(self.admin_url, query_string(matcher_params(match, **fields)))

    # -- server ---------------------------------------------------------------------------------

    def health(self) -> Dict[str, Any]:
        """``GET /health``: ``{"status": "ok", …}``."""
        return self._json("GET", "/health")

    def info(self) -> Dict[str, Any]:
        """``GET /v1/info``: version, environment, ``apnsUrl``, ``apnsPorts``, ``channelsUrl``,
        ``channelsPort``, ``adminUrl``, ``adminPort``, ``caUrl``."""
        return self._json("GET", "/v1/info")

    def ca_pem(self) -> str:
        """``GET /v1/ca.pem``: the CA certificate (PEM) a client trusts to reach the APNs ports."""
        return self._request("GET", "/v1/ca.pem").text

    def openapi(self) -> str:
        """``GET /v1/openapi.yaml``: the admin API's OpenAPI 3.1 document (YAML text)."""
        return self._request("GET", "/v1/openapi.yaml").text

    def metrics(self) -> str:
        """``GET /metrics``: Prometheus metrics (text format 0.0.4)."""
        return self._request("GET", "/metrics").text

    def reset(self, close_connections: bool = False) -> Dict[str, Any]:
        """``POST /v1/reset``: back to the start-up state (records, runtime keys, devices, faults,
        modes). ``{"reset": true, "closedConnections": N}``."""
        params = [("closeConnections", "true")] if close_connections else None
        return self._json("POST", "/v1/reset", params=params)

    # -- deliveries -----------------------------------------------------------------------------

    def deliveries(self, *, since: Optional[int] = None, before: Optional[int] = None,
                   limit: Optional[int] = None, order: Optional[str] = None,
                   match: Optional[Matcher] = None, **fields: Any) -> List[Dict[str, Any]]:
        """``GET /v1/deliveries``: the records that match, as the API gives them.

        Without ``limit`` every page is read (following ``next``); with it, one page of at most
        ``limit`` records. ``order="desc"`` gives the newest first.
        """
        params = matcher_params(match, **fields)
        for name, value in (("since", since), ("before", before), ("limit", limit), ("order", order)):
            if value is not None:
                params.append((name, _text(value)))
        records: List[Dict[str, Any]] = []
        while True:
            page = self._json("GET", "/v1/deliveries", params=params)
            records += page["deliveries"]
            cursor = page.get("next")
            if limit is not None or cursor is None or not page["deliveries"]:
                return records
            key = "before" if order == "desc" else "since"
            params = [(k, v) for k, v in params if k != key] + [(key, str(cursor))]

    def delivery(self, apns_id: str) -> Dict[str, Any]:
        """``GET /v1/deliveries/{apnsId}``: the most recent record with this apns-id."""
        return self._json("GET", f"/v1/deliveries/{_quote_path(apns_id)}")

    def preview(self, apns_id: str) -> Dict[str, Any]:
        """``GET /v1/deliveries/{apnsId}/preview``: what the device would show."""
        return self._json("GET", f"/v1/deliveries/{_quote_path(apns_id)}/preview")

    def simulator_file(self, apns_id: str) -> Dict[str, Any]:
        """``GET /v1/deliveries/{apnsId}/simulator.apns``: the payload as an iOS Simulator file."""
        return self._json("GET", f"/v1/deliveries/{_quote_path(apns_id)}/simulator.apns")

    def delivery_log(self, unique_id: str) -> Dict[str, Any]:
        """``GET /v1/delivery-log/{uniqueId}``: a sandbox push's or a broadcast's delivery log by
        its ``apns-unique-id`` (``events``: received, stored, delivered, discarded)."""
        return self._json("GET", f"/v1/delivery-log/{_quote_path(unique_id)}")

    def delete_deliveries(self, match: Optional[Matcher] = None, **fields: Any) -> int:
        """``DELETE /v1/deliveries?<matcher>``: deletes the matching records (all without a
        matcher); returns how many."""
        return self._json("DELETE", "/v1/deliveries", params=matcher_params(match, **fields))["deleted"]

    def wait(self, count: int = 1, timeout: Duration = 10, *, since: Optional[int] = None,
             before: Optional[int] = None, match: Optional[Matcher] = None,
             **fields: Any) -> List[Dict[str, Any]]:
        """``GET /v1/deliveries/wait``: the matching records once at least ``count`` exist.

        ``timeout`` is seconds or a string with a unit (``"500ms"``, at most 300 s). When it runs
        out, raises :class:`WaitTimeout` carrying the records that matched and the near misses.
        """
        matcher = matcher_params(match, **fields)
        params = matcher + [("count", str(count)), ("timeout", _duration(timeout))]
        for name, value in (("since", since), ("before", before)):
            if value is not None:
                params.append((name, str(value)))
        seconds = _seconds(timeout)
        response = self._request("GET", "/v1/deliveries/wait", params=params, timeout=seconds + 30, ok=(408,))
        answer = response.json()
        if response.status_code == 408:
            query = query_string(matcher)
            raise WaitTimeout(count, timeout, query, answer.get("deliveries", []), answer.get("nearMisses", []),
                              dashboard_link(self.admin_url, query), answer.get("explanation"))
        return answer["deliveries"]

    def events(self, *, since: Optional[int] = None, last_event_id: Optional[int] = None,
               read_timeout: Optional[float] = None, behind: Optional[str] = None,
               match: Optional[Matcher] = None, **fields: Any) -> Iterator[Dict[str, Any]]:
        """``GET /v1/events``: an iterator over new matching records, live (Server-Sent Events).

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
        timeout = httpx.Timeout(self._http.timeout.connect, read=read_timeout)
        path = f"/v1/events?{query_string(params)}" if params else "/v1/events"
        with self._http.stream("GET", path, headers=headers, timeout=timeout) as response:
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

    def verify(self, expectations: Union[str, os.PathLike, Mapping[str, Any], Sequence[Any]]) -> Dict[str, Any]:
        """``POST /v1/verify``: checks expectations, waiting up to each one's ``within``.

        Takes an expectation file's path (its YAML read here; only its ``expect:`` list is sent,
        its ``setup:`` is not applied), or the body as a dict ``{"expect": [...]}`` or a list.
        Returns ``{"passed": bool, "results": [...]}`` whether they passed or not.
        """
        if isinstance(expectations, (str, os.PathLike)):
            import yaml

            document = yaml.safe_load(pathlib.Path(expectations).read_text())
            body: Any = {"expect": (document or {}).get("expect", [])} if isinstance(document, dict) else document
        elif isinstance(expectations, Mapping):
            body = dict(expectations)
        else:
            body = list(expectations)
        return self._json("POST", "/v1/verify", body=body, timeout=330)

    # -- keys -----------------------------------------------------------------------------------

    def keys(self) -> List[Dict[str, Any]]:
        """``GET /v1/keys``: the registered token-signing keys."""
        return self._json("GET", "/v1/keys")["keys"]

    def key(self, key_id: str) -> Dict[str, Any]:
        """``GET /v1/keys/{keyId}``."""
        return self._json("GET", f"/v1/keys/{_quote_path(key_id)}")

    def put_key(self, key_id: str, team_id: str, *, public_key: Optional[str] = None,
                private_key: Optional[str] = None, environment: Optional[str] = None,
                topics: Optional[Sequence[str]] = None, related_key_id: Optional[str] = None) -> Dict[str, Any]:
        """``PUT /v1/keys/{keyId}``: registers (or replaces) a key; give ``public_key`` (PEM) or
        ``private_key`` (the ``.p8`` text, of which only the public half is kept)."""
        body: Dict[str, Any] = {"teamId": team_id}
        for name, value in (("publicKey", public_key), ("privateKey", private_key), ("environment", environment),
                            ("topics", list(topics) if topics is not None else None), ("relatedKeyId", related_key_id)):
            if value is not None:
                body[name] = value
        return self._json("PUT", f"/v1/keys/{_quote_path(key_id)}", body=body)

    def delete_key(self, key_id: str) -> None:
        """``DELETE /v1/keys/{keyId}``."""
        self._request("DELETE", f"/v1/keys/{_quote_path(key_id)}")

    # -- devices --------------------------------------------------------------------------------

    def devices(self) -> List[Dict[str, Any]]:
        """``GET /v1/devices``: the registered devices."""
        return self._json("GET", "/v1/devices")["devices"]

    def device(self, token: str) -> Dict[str, Any]:
        """``GET /v1/devices/{token}``."""
        return self._json("GET", f"/v1/devices/{_quote_path(token)}")

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
        ``uninstall_grace``); ``background_pushes_per_hour``."""
        body: Dict[str, Any] = {}
        for name, value in (("topic", topic), ("environment", environment), ("locale", locale), ("state", state),
                            ("unregisteredAt", unregistered_at), ("expiredAt", expired_at), ("presence", presence),
                            ("until", until), ("for", None if for_ is None else _duration(for_)), ("periods", periods),
                            ("notifications", notifications), ("installed", installed),
                            ("uninstalledAt", uninstalled_at), ("uninstallGrace", None if uninstall_grace is None else _duration(uninstall_grace)),
                            ("backgroundPushesPerHour", background_pushes_per_hour)):
            if value is not None:
                body[name] = value
        return self._json("PUT", f"/v1/devices/{_quote_path(token)}", body=body)

    def delete_device(self, token: str) -> None:
        """``DELETE /v1/devices/{token}``."""
        self._request("DELETE", f"/v1/devices/{_quote_path(token)}")

    def unregister_device(self, token: str, unregistered_at: Optional[int] = None) -> Dict[str, Any]:
        """``POST /v1/devices/{token}/unregister``: pushes to it get 410 ``Unregistered``."""
        body = {"unregisteredAt": unregistered_at} if unregistered_at is not None else None
        return self._json("POST", f"/v1/devices/{_quote_path(token)}/unregister", body=body)

    def expire_device(self, token: str, expired_at: Optional[int] = None) -> Dict[str, Any]:
        """``POST /v1/devices/{token}/expire``: pushes to it get 410 ``ExpiredToken``."""
        body = {"expiredAt": expired_at} if expired_at is not None else None
        return self._json("POST", f"/v1/devices/{_quote_path(token)}/expire", body=body)

    def device_notifications(self, token: str, limit: Optional[int] = None) -> Dict[str, Any]:
        """``GET /v1/devices/{token}/notifications``: what the device's user sees now: its
        ``notifications`` (delivered alerts, newest first, one per collapse id; at most ``limit``,
        100 by default), ``badges`` per topic, ``liveActivities``, and what APNs holds for it
        (``stored``), with its ``conditions``. A token nobody pushed to has an empty view."""
        params = [("limit", str(limit))] if limit is not None else None
        return self._json("GET", f"/v1/devices/{_quote_path(token)}/notifications", params=params)

    # -- channels -------------------------------------------------------------------------------

    def channels(self, *, bundle_id: Optional[str] = None, environment: Optional[str] = None,
                 token: Optional[str] = None) -> List[Dict[str, Any]]:
        """``GET /v1/channels``: broadcast channels, oldest first, with their subscribers."""
        params = [(n, v) for n, v in (("bundleId", bundle_id), ("environment", environment), ("token", token)) if v is not None]
        return self._json("GET", "/v1/channels", params=params)["channels"]

    def create_channel(self, bundle_id: str, environment: str = "sandbox", *,
                       message_storage_policy: Optional[int] = None, push_type: Optional[str] = None,
                       channel_id: Optional[str] = None) -> Dict[str, Any]:
        """``POST /v1/channels``: creates a broadcast channel (201, the channel with its
        ``channelId``)."""
        body: Dict[str, Any] = {"bundleId": bundle_id, "environment": environment}
        for name, value in (("messageStoragePolicy", message_storage_policy), ("pushType", push_type),
                            ("channelId", channel_id)):
            if value is not None:
                body[name] = value
        return self._json("POST", "/v1/channels", body=body)

    def channel(self, channel_id: str) -> Dict[str, Any]:
        """``GET /v1/channels/{channelId}``."""
        return self._json("GET", f"/v1/channels/{_quote_path(channel_id)}")

    def delete_channel(self, channel_id: str) -> None:
        """``DELETE /v1/channels/{channelId}``."""
        self._request("DELETE", f"/v1/channels/{_quote_path(channel_id)}")

    def subscribe(self, channel_id: str, token: str) -> Dict[str, Any]:
        """``PUT /v1/channels/{channelId}/devices/{token}``: subscribes the device's Live Activity
        to the channel; returns the channel (with its ``subscribers`` count)."""
        return self._json("PUT", f"/v1/channels/{_quote_path(channel_id)}/devices/{_quote_path(token)}")

    def subscribe_many(self, channel_id: str, tokens: List[str]) -> Dict[str, Any]:
        """``POST /v1/channels/{channelId}/devices``: subscribes every device of ``tokens`` at
        once; returns ``{"channelId", "added", "subscribers"}``."""
        return self._json("POST", f"/v1/channels/{_quote_path(channel_id)}/devices", body={"tokens": list(tokens)})

    def unsubscribe(self, channel_id: str, token: str) -> None:
        """``DELETE /v1/channels/{channelId}/devices/{token}``."""
        self._request("DELETE", f"/v1/channels/{_quote_path(channel_id)}/devices/{_quote_path(token)}")

    def broadcast_capability(self, bundle_id: str) -> Dict[str, Any]:
        """``GET /v1/apps/{bundleId}/broadcast``: ``{"bundleId", "enabled"}``."""
        return self._json("GET", f"/v1/apps/{_quote_path(bundle_id)}/broadcast")

    def set_broadcast_capability(self, bundle_id: str, enabled: bool) -> Dict[str, Any]:
        """``PUT /v1/apps/{bundleId}/broadcast``: off deletes the app's channels."""
        return self._json("PUT", f"/v1/apps/{_quote_path(bundle_id)}/broadcast", body={"enabled": enabled})

    # -- faults ---------------------------------------------------------------------------------

    def faults(self) -> List[Dict[str, Any]]:
        """``GET /v1/faults``: the rules in the order they are tried, with ``hits`` and ``matches``."""
        return self._json("GET", "/v1/faults")["faults"]

    def fault(self, fault_id: str) -> Dict[str, Any]:
        """``GET /v1/faults/{id}``."""
        return self._json("GET", f"/v1/faults/{_quote_path(fault_id)}")

    def add_fault(self, rule: Optional[Mapping[str, Any]] = None, *, id: Optional[str] = None,
                  match: Optional[Mapping[str, Any]] = None, select: Optional[Mapping[str, Any]] = None,
                  action: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
        """``POST /v1/faults``: adds a rule after the others; returns it with its ``id``.

        Give the rule as the API's JSON (``rule={"match": …, "select": …, "action": …}``) or its
        parts as keyword arguments (``match={"token": t}, select={"first": 2},
        action={"respond": {"status": 503, "reason": "ServiceUnavailable"}}``). An ``id`` in use
        raises :class:`AdminError` ``faultRuleExists`` (:meth:`put_fault` replaces).
        """
        return self._json("POST", "/v1/faults", body=_rule(rule, id=id, match=match, select=select, action=action))

    def put_fault(self, fault_id: str, rule: Optional[Mapping[str, Any]] = None, *,
                  match: Optional[Mapping[str, Any]] = None, select: Optional[Mapping[str, Any]] = None,
                  action: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
        """``PUT /v1/faults/{id}``: creates the rule with this id, or replaces it in place (its
        counts start again)."""
        body = _rule(rule, match=match, select=select, action=action)
        return self._json("PUT", f"/v1/faults/{_quote_path(fault_id)}", body=body)

    def delete_fault(self, fault_id: str) -> None:
        """``DELETE /v1/faults/{id}``."""
        self._request("DELETE", f"/v1/faults/{_quote_path(fault_id)}")

    def delete_faults(self) -> int:
        """``DELETE /v1/faults``: removes every rule; returns how many."""
        return self._json("DELETE", "/v1/faults")["removed"]

    # -- behaviors and modes --------------------------------------------------------------------

    def behaviors(self) -> List[Dict[str, Any]]:
        """``GET /v1/behaviors``: the APNs behaviors switched on."""
        return self._json("GET", "/v1/behaviors")["behaviors"]

    def enable_behavior(self, name: str, lockout: Optional[Duration] = None) -> List[Dict[str, Any]]:
        """``POST /v1/behaviors``: switches a behavior on (``lockout`` for ``token-update-lockout``)."""
        body: Dict[str, Any] = {"name": name}
        if lockout is not None:
            body["lockout"] = _duration(lockout)
        return self._json("POST", "/v1/behaviors", body=body)["behaviors"]

    def disable_behavior(self, name: str) -> None:
        """``DELETE /v1/behaviors/{name}``."""
        self._request("DELETE", f"/v1/behaviors/{_quote_path(name)}")

    def modes(self) -> Dict[str, Any]:
        """``GET /v1/modes``: ``{"shutdown", "unavailable", "unavailableUntil", "refuseTls", "throttle"}``."""
        return self._json("GET", "/v1/modes")

    def set_mode(self, mode: str, *, for_: Optional[Duration] = None, count: Optional[int] = None) -> Dict[str, Any]:
        """``POST /v1/modes/{mode}``: ``shutdown``, ``unavailable`` (``for_="30s"``) or
        ``refuse-tls`` (``count=N``). Server-wide: every client of the server sees it."""
        params: Params = []
        if for_ is not None:
            params.append(("for", None if for_ is None else _duration(for_)))
        if count is not None:
            params.append(("count", str(count)))
        return self._json("POST", f"/v1/modes/{_quote_path(mode)}", params=params)

    def clear_mode(self, mode: str) -> Dict[str, Any]:
        """``DELETE /v1/modes/{mode}``."""
        return self._json("DELETE", f"/v1/modes/{_quote_path(mode)}")

    # -- the clock -------------------------------------------------------------------------------

    def clock(self) -> Dict[str, Any]:
        """``GET /v1/clock``: ``{"now", "offsetMs", "mode"}``, the server's clock (epoch ms)."""
        return self._json("GET", "/v1/clock")

    def move_clock(self, *, advance: Optional[Duration] = None, set: Optional[int] = None) -> Dict[str, Any]:
        """``POST /v1/clock``: forward by ``advance`` (``"61m"``), or to ``set`` (epoch ms, not before
        the newest record). Server-wide: record times, token ages, fault windows and throttles read it."""
        if (advance is None) == (set is None):
            raise ValueError("move_clock takes one of advance= and set=")
        body: Dict[str, Any] = {"advance": _duration(advance)} if advance is not None else {"set": set}
        return self._json("POST", "/v1/clock", body=body)

    def reset_clock(self) -> Dict[str, Any]:
        """``DELETE /v1/clock``: the wall clock again."""
        return self._json("DELETE", "/v1/clock")

    # -- connections and report -----------------------------------------------------------------

    def connections(self, state: Optional[str] = None) -> List[Dict[str, Any]]:
        """``GET /v1/connections``: live APNs connections then recently closed ones (``state="open"``:
        live ones only), with their events."""
        params = [("state", state)] if state else None
        return self._json("GET", "/v1/connections", params=params)["connections"]

    def report(self, *, since: Optional[int] = None, until: Optional[int] = None,
               window: Optional[Duration] = None) -> Dict[str, Any]:
        """``GET /v1/report``: the provider-behaviour report (per provider identity, with findings)."""
        params: Params = []
        for name, value in (("since", since), ("until", until)):
            if value is not None:
                params.append((name, str(value)))
        if window is not None:
            params.append(("window", _duration(window)))
        return self._json("GET", "/v1/report", params=params)


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
