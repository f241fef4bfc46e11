"""Provider credentials for a test session: a token-signing key the mock knows, and its ES256 tokens."""

from __future__ import annotations

import base64
import json
import os
import pathlib
import re
import secrets
import string
import threading
import time
from typing import Any, Callable, Dict, Mapping, Optional, Union

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

KEY_ENV = "APNS_MOCK_PROVIDER_KEY"
KEY_ID_ENV = "APNS_MOCK_PROVIDER_KEY_ID"
TEAM_ID_ENV = "APNS_MOCK_PROVIDER_TEAM_ID"
DEFAULT_TEAM_ID = "MOCKTEAM00"
# Apple refuses a provider that changes its token more often than every 20 minutes (429
# TooManyProviderTokenUpdates) and one older than an hour (403 ExpiredProviderToken).
TOKEN_REUSE_SECONDS = 50 * 60

_ID_ALPHABET = string.ascii_uppercase + string.digits
_APPLE_KEY_FILE = re.compile(r"^AuthKey_([A-Za-z0-9]+)\.p8$")


def _base64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _json_part(value: Mapping[str, Any]) -> str:
    return _base64url(json.dumps(value, separators=(",", ":")).encode())


class ProviderCredentials:
    """What a provider needs to push to the mock with token authentication, as Apple's are given
    to a team: a P-256 signing key (``key_path``, a ``.p8`` file), its ``key_id`` and the
    ``team_id``, and :meth:`token`, the ES256 provider token they make.

    The mock knows the key (``PUT /v1/keys/{keyId}``, or the setup of a server this package
    starts), so a token that is not signed with it is refused with 403 ``InvalidProviderToken``.
    Build one with :meth:`generate`, :meth:`from_file` or :meth:`from_settings`; :class:`Mock`
    and the pytest plugin do it for you (``mock.provider``, ``apns.provider``).
    """

    def __init__(self, private_key: ec.EllipticCurvePrivateKey, key_id: str, team_id: str = DEFAULT_TEAM_ID,
                 key_path: Union[str, os.PathLike] = "", *, clock: Callable[[], float] = time.time) -> None:
        if not isinstance(private_key, ec.EllipticCurvePrivateKey) or private_key.curve.name != "secp256r1":
            raise ValueError("a provider token signing key is an EC P-256 key (Apple's .p8)")
        for name, value in (("key id", key_id), ("team id", team_id)):
            if not value or not value.isascii() or not value.isalnum():
                raise ValueError(f"the {name} {value!r} is not letters and digits (Apple's are 10, e.g. ABC123DEFG)")
        self.private_key = private_key
        self.key_id = key_id
        self.team_id = team_id
        #: The ``.p8`` file (PKCS#8 PEM) holding the key; ``""`` for a generated key not yet written.
        self.key_path = os.fspath(key_path)
        #: True for a key made by :meth:`generate` (written by :meth:`write`), False for a file's.
        self.generated = False
        self._clock = clock
        self._lock = threading.Lock()
        self._token = ""
        self._issued_at = 0

    def __repr__(self) -> str:
        return (f"apns_mock.ProviderCredentials(key_id={self.key_id!r}, team_id={self.team_id!r}, "
                f"key_path={self.key_path!r})")

    # -- making one -----------------------------------------------------------------------------

    @classmethod
    def generate(cls, key_id: Optional[str] = None, team_id: Optional[str] = None) -> "ProviderCredentials":
        """A new P-256 key, with ``key_id`` (default: 10 random letters and digits) and ``team_id``
        (default ``MOCKTEAM00``). It stays in memory until :meth:`write`."""
        key_id = key_id or "".join(secrets.choice(_ID_ALPHABET) for _ in range(10))
        credentials = cls(ec.generate_private_key(ec.SECP256R1()), key_id, team_id or DEFAULT_TEAM_ID)
        credentials.generated = True
        return credentials

    @classmethod
    def from_file(cls, path: Union[str, os.PathLike], key_id: Optional[str] = None,
                  team_id: Optional[str] = None) -> "ProviderCredentials":
        """The key of a ``.p8`` file (as Apple's developer site gives it). ``key_id`` defaults to the
        one in Apple's file name, ``AuthKey_<key id>.p8``; ``team_id`` to ``MOCKTEAM00``."""
        path = pathlib.Path(path)
        if key_id is None:
            named = _APPLE_KEY_FILE.match(path.name)
            if not named:
                raise ValueError(f"{path}: give the key id (provider_key_id=, or ${KEY_ID_ENV}): the file is not "
                                 "named AuthKey_<key id>.p8")
            key_id = named.group(1)
        try:
            key = serialization.load_pem_private_key(path.read_bytes(), password=None)
        except (OSError, ValueError, TypeError) as error:
            raise ValueError(f"{path}: not a readable PEM private key ({error})") from None
        if not isinstance(key, ec.EllipticCurvePrivateKey):
            raise ValueError(f"{path}: not an EC key (a provider token signing key is P-256)")
        return cls(key, key_id, team_id or DEFAULT_TEAM_ID, path)

    @classmethod
    def from_settings(cls, key: Union[str, os.PathLike, None] = None, key_id: Optional[str] = None,
                      team_id: Optional[str] = None,
                      environ: Optional[Mapping[str, str]] = None) -> "ProviderCredentials":
        """The credentials a test session uses: the ``.p8`` file ``key`` (else
        ``$APNS_MOCK_PROVIDER_KEY``) with ``key_id`` (else ``$APNS_MOCK_PROVIDER_KEY_ID``) and
        ``team_id`` (else ``$APNS_MOCK_PROVIDER_TEAM_ID``); without a file, a generated key."""
        environ = os.environ if environ is None else environ
        key = key or environ.get(KEY_ENV) or None
        key_id = key_id or environ.get(KEY_ID_ENV) or None
        team_id = team_id or environ.get(TEAM_ID_ENV) or None
        if key:
            return cls.from_file(key, key_id, team_id)
        return cls.generate(key_id, team_id)

    def write(self, directory: Union[str, os.PathLike]) -> str:
        """Writes a generated key to ``directory/AuthKey_<key id>.p8`` (mode 0600) and sets
        :attr:`key_path`, unless its file is there already; a key read from a file keeps its file.
        Returns :attr:`key_path`."""
        if self.generated and not (self.key_path and os.path.exists(self.key_path)):
            path = pathlib.Path(directory) / f"AuthKey_{self.key_id}.p8"
            path.parent.mkdir(parents=True, exist_ok=True)
            pem = self.private_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                 serialization.NoEncryption())
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(pem)
            self.key_path = str(path)
        return self.key_path

    # -- what the mock is told ------------------------------------------------------------------

    @property
    def public_key_pem(self) -> str:
        """The public half, PEM ``PUBLIC KEY``: what the mock verifies tokens with."""
        return self.private_key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode("ascii")

    def key_body(self) -> Dict[str, Any]:
        """The body of ``PUT /v1/keys/{keyId}``: a team-scoped key for both environments."""
        return {"teamId": self.team_id, "environment": "both", "publicKey": self.public_key_pem}

    def setup_document(self) -> Dict[str, Any]:
        """An expectation file's ``setup:`` registering the key: a server started with it as
        ``--expectations`` knows the key from the start and again after ``POST /v1/reset``."""
        return {"setup": {"keys": [{"keyId": self.key_id, **self.key_body()}]}}

    def register(self, client: Any) -> Dict[str, Any]:
        """``PUT /v1/keys/{keyId}`` through an admin :class:`Client`; returns the key as stored."""
        return client.put_key(self.key_id, body=self.key_body())

    # -- tokens ---------------------------------------------------------------------------------

    def token(self) -> str:
        """The provider token: an ES256 JWT (header ``{"alg": "ES256", "kid": key_id}``, claims
        ``{"iss": team_id, "iat": now}``) with the JOSE signature (R‖S, 64 bytes). The same string
        is returned for 50 minutes, then a new one: Apple answers 429
        ``TooManyProviderTokenUpdates`` to a connection whose token changes more often than every
        20 minutes, and 403 ``ExpiredProviderToken`` to one older than an hour."""
        with self._lock:
            now = int(self._clock())
            if not self._token or now - self._issued_at >= TOKEN_REUSE_SECONDS or now < self._issued_at:
                self._token = self.sign({"iss": self.team_id, "iat": now})
                self._issued_at = now
            return self._token

    def sign(self, claims: Mapping[str, Any]) -> str:
        """A JWT with this key's header and the given ``claims``, signed now (not cached): for a
        test that needs an unusual token (an old ``iat``, another issuer)."""
        signing_input = f"{_json_part({'alg': 'ES256', 'kid': self.key_id})}.{_json_part(claims)}"
        der = self.private_key.sign(signing_input.encode("ascii"), ec.ECDSA(hashes.SHA256()))
        r, s = decode_dss_signature(der)
        return f"{signing_input}.{_base64url(r.to_bytes(32, 'big') + s.to_bytes(32, 'big'))}"

    def as_dict(self) -> Dict[str, str]:
        """``{path, key_id, team_id}``: :meth:`from_file`'s arguments, for another process."""
        return {"path": self.key_path, "key_id": self.key_id, "team_id": self.team_id}
