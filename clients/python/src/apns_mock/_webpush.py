"""Web Push subscriptions for a test: made by the mock as a browser makes them, with a VAPID key."""

from __future__ import annotations

import base64
import copy
from typing import Any, Dict, Mapping, Optional, Union
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

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
    """

    def __init__(self, answer: Mapping[str, Any], vapid_key: Optional[ec.EllipticCurvePrivateKey] = None,
                 endpoint_base: Optional[str] = None) -> None:
        #: The admin API's answer as it came (``createdAt``, ``state`` as created, …).
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

    @classmethod
    def create(cls, client: Any, application_server_key: Optional[ApplicationServerKey] = None, *,
               origin: Optional[str] = None, expiration_time: Optional[int] = None,
               endpoint_base: Optional[str] = None) -> "WebPushSubscription":
        """Subscribes through ``client`` (:class:`apns_mock.Client`). Without
        ``application_server_key``, a P-256 VAPID key pair is generated for it; a private key
        given is kept too (:attr:`vapid_private_key`). ``origin`` is the site that subscribed
        (``https://example.com``); ``expiration_time`` when it stops taking pushes (epoch
        milliseconds; a push after it is answered 410). ``endpoint_base`` replaces the endpoint's
        origin: the Web Push URL as the caller reaches it (``ApnsMockContainer.webpush_url``)."""
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
        return cls(client.create_web_push_subscription(body=body), vapid_key, endpoint_base)

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
