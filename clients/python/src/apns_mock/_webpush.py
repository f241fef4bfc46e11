"""Web Push subscriptions for a test: made by the mock as a browser makes them, with a VAPID key."""

from __future__ import annotations

import base64
import copy
from typing import Any, Dict, List, Mapping, Optional, Union
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from ._client import Duration, _duration

#: What a VAPID ``sub`` claim says when the test names no contact of its own.
DEFAULT_VAPID_SUBJECT = "mailto:test@example.com"

#: What ``application_server_key`` may be: the key's base64url text (an uncompressed P-256 point,
#: 65 bytes), those 65 bytes, the public key, or the private key (whose public half is sent).
ApplicationServerKey = Union[str, bytes, ec.EllipticCurvePublicKey, ec.EllipticCurvePrivateKey]


def _base64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def generate_vapid_key() -> ec.EllipticCurvePrivateKey:
    """A new VAPID key pair: an EC P-256 private key (RFC 8292)."""
    return ec.generate_private_key(ec.SECP256R1())


def application_server_key_text(key: ApplicationServerKey) -> str:
    """The ``applicationServerKey`` a page passes to ``pushManager.subscribe``: the public key as an
    uncompressed P-256 point (65 bytes, ``0x04 || X || Y``), base64url without padding. A string
    is taken as that text already."""
    if isinstance(key, str):
        return key
    if isinstance(key, ec.EllipticCurvePrivateKey):
        key = key.public_key()
    if isinstance(key, ec.EllipticCurvePublicKey):
        if key.curve.name != "secp256r1":
            raise ValueError(f"a VAPID key is an EC P-256 key, not {key.curve.name}")
        key = key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    if isinstance(key, (bytes, bytearray)):
        if len(key) != 65 or key[0] != 4:
            raise ValueError("an applicationServerKey's bytes are an uncompressed P-256 point: 65 bytes starting 0x04")
        return _base64url(bytes(key))
    raise TypeError(f"an applicationServerKey is base64url text, 65 bytes or an EC P-256 key, not {type(key).__name__}")


def _device_body(conditions: Optional[Mapping[str, Any]] = None, **fields: Any) -> Dict[str, Any]:
    """A ``WebPushDeviceBody``: ``conditions`` with the keywords given put over it (``for_`` is ``for``)."""
    body: Dict[str, Any] = dict(conditions or {})
    for name, value in fields.items():
        if value is None:
            continue
        if name == "for_":
            name, value = "for", _duration(value)
        body[name] = value
    return body


class WebPushSubscription:
    """A Web Push subscription the mock made, as a browser makes one for a page that calls
    ``pushManager.subscribe({applicationServerKey})`` (``POST /v1/webpush/subscriptions``).

    What the page would send to its application server: :attr:`endpoint`, :attr:`keys`
    (``p256dh``, ``auth``) and :attr:`expiration_time`, together :attr:`subscription_info` (the
    W3C ``PushSubscription`` JSON, which pywebpush's ``webpush(subscription_info=…)`` and other
    Web Push libraries take as it is). :attr:`id` names it in the admin API and in the records of
    the pushes sent to it (``kind=webPush``, ``subscriptionId=<id>``).

    When the key pair was generated for the test (or its private key given),
    :attr:`vapid_private_key` is what the application server signs with: the private key as
    base64url of its 32 bytes, which pywebpush's ``vapid_private_key=`` argument takes (and most
    Web Push libraries' "VAPID private key" settings); :attr:`vapid_private_key_pem` is the same
    key as PKCS#8 PEM, :attr:`vapid_key` as a ``cryptography`` key. The mock checks every push's
    VAPID JWT: signed with this key (``k`` must be :attr:`application_server_key`), ``aud`` the
    endpoint's origin (:attr:`audience`), ``exp`` at most 24 hours ahead, ``sub`` a ``mailto:``
    or ``https:`` URL (:meth:`vapid_claims`).

    Its browser is a device to the delivery model: :attr:`device` is its conditions
    (``presence``, ``periods``, ``notifications``), given at creation (``device=``) or by
    :meth:`set_device`. A push accepted while the browser is offline is held (its record's
    ``delivery`` is ``stored``) until it comes online.
    """

    def __init__(self, answer: Mapping[str, Any], vapid_key: Optional[ec.EllipticCurvePrivateKey] = None,
                 endpoint_base: Optional[str] = None, client: Any = None) -> None:
        #: The admin API's answer as it came (``createdAt``, ``state`` as created, …), replaced by
        #: the newer one :meth:`set_device` gets.
        self.json: Dict[str, Any] = copy.deepcopy(dict(answer))
        self.id: str = answer["id"]
        #: Where a provider POSTs pushes: the answer's endpoint, or its path on ``endpoint_base``
        #: (a Web Push URL reached through other ports, such as a container's published one).
        self.endpoint: str = answer["endpoint"]
        if endpoint_base:
            self.endpoint = endpoint_base.rstrip("/") + urlsplit(self.endpoint).path
        self.keys: Dict[str, str] = dict(answer["keys"])
        self.expiration_time: Optional[int] = answer.get("expirationTime")
        self.origin: Optional[str] = answer.get("origin")
        self.application_server_key: str = answer["applicationServerKey"]
        self.vapid_key = vapid_key
        self._client = client

    @property
    def device(self) -> Dict[str, Any]:
        """The subscription's browser as the delivery model sees it, as the server last answered
        (:attr:`json`'s ``device``): ``{"presence", "periods", "notifications"}``."""
        return copy.deepcopy(self.json.get("device") or {})

    def set_device(self, conditions: Optional[Mapping[str, Any]] = None, *, presence: Optional[str] = None,
                   until: Optional[int] = None, for_: Optional[Duration] = None,
                   periods: Optional[List[Dict[str, Any]]] = None,
                   notifications: Optional[str] = None) -> Dict[str, Any]:
        """``PUT /v1/webpush/subscriptions/{id}/device``: sets the conditions of the subscription's
        browser, and the server judges again what it holds (setting ``online`` delivers what it
        kept while offline: the record's ``delivery`` becomes ``delivered``). ``presence``
        (``online``, ``offline``, ``lowPower``) with ``until`` (epoch ms) or ``for_`` (a duration:
        the body's ``for``, ``"10m"``; a number is seconds), or a schedule of ``periods``;
        ``notifications`` (``enabled``, ``disabled``). ``conditions`` is the body as a dict, the
        keywords given are put over it. Returns the subscription as the server then has it (also
        :attr:`json`); an unknown field raises :class:`AdminError` 400 naming it."""
        if self._client is None:
            raise RuntimeError("this subscription was made without a client: use Client.put_web_push_device")
        body = _device_body(conditions, presence=presence, until=until, for_=for_, periods=periods,
                            notifications=notifications)
        answer = self._client.put_web_push_device(self.id, body=body)
        self.json = copy.deepcopy(dict(answer))
        return answer

    @classmethod
    def create(cls, client: Any, application_server_key: Optional[ApplicationServerKey] = None, *,
               origin: Optional[str] = None, expiration_time: Optional[int] = None,
               endpoint_base: Optional[str] = None,
               device: Optional[Mapping[str, Any]] = None) -> "WebPushSubscription":
        """Subscribes through ``client`` (:class:`apns_mock.Client`). Without
        ``application_server_key``, a P-256 VAPID key pair is generated for it; a private key
        given is kept too (:attr:`vapid_private_key`). ``origin`` is the site that subscribed
        (``https://example.com``); ``expiration_time`` when it stops taking pushes (epoch
        milliseconds; a push after it is answered 410). ``endpoint_base`` replaces the endpoint's
        origin: the Web Push URL as the caller reaches it (``ApnsMockContainer.webpush_url``).
        ``device`` is the browser's conditions from the start, the body of :meth:`set_device`
        (``{"presence": "offline"}``, ``{"presence": "lowPower", "for": "10m"}``, …)."""
        vapid_key: Optional[ec.EllipticCurvePrivateKey] = None
        if application_server_key is None:
            application_server_key = vapid_key = generate_vapid_key()
        elif isinstance(application_server_key, ec.EllipticCurvePrivateKey):
            vapid_key = application_server_key
        body: Dict[str, Any] = {"applicationServerKey": application_server_key_text(application_server_key)}
        if origin is not None:
            body["origin"] = origin
        if expiration_time is not None:
            body["expirationTime"] = expiration_time
        if device is not None:
            body["device"] = dict(device)
        return cls(client.create_web_push_subscription(body=body), vapid_key, endpoint_base, client)

    def __repr__(self) -> str:
        return f"apns_mock.WebPushSubscription(id={self.id!r}, endpoint={self.endpoint!r})"

    @property
    def subscription_info(self) -> Dict[str, Any]:
        """The W3C ``PushSubscription`` JSON (``endpoint``, ``expirationTime``, ``keys``), a new
        dict each time: what a browser gives the page, and pywebpush's ``subscription_info``."""
        return {"endpoint": self.endpoint, "expirationTime": self.expiration_time, "keys": dict(self.keys)}

    @property
    def audience(self) -> str:
        """The origin of the endpoint (``https://host:port``): the VAPID JWT's ``aud``."""
        parts = urlsplit(self.endpoint)
        return f"{parts.scheme}://{parts.netloc}"

    def vapid_claims(self, subject: str = DEFAULT_VAPID_SUBJECT) -> Dict[str, Any]:
        """VAPID claims for a push to this subscription, a new dict each time: ``sub`` (a
        ``mailto:`` or ``https:`` contact) and ``aud`` (:attr:`audience`). pywebpush adds ``exp``
        (12 hours ahead) to the dict it is given."""
        return {"sub": subject, "aud": self.audience}

    @property
    def vapid_private_key(self) -> Optional[str]:
        """The VAPID private key as base64url of its 32 bytes (what pywebpush's
        ``vapid_private_key=`` takes), or None when only the public key was given."""
        if self.vapid_key is None:
            return None
        return _base64url(self.vapid_key.private_numbers().private_value.to_bytes(32, "big"))

    @property
    def vapid_private_key_pem(self) -> Optional[str]:
        """The VAPID private key as PKCS#8 PEM text, or None when only the public key was given."""
        if self.vapid_key is None:
            return None
        return self.vapid_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                            serialization.NoEncryption()).decode("ascii")
