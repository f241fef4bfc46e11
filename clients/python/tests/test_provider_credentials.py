"""Provider credentials: ``apns.provider`` and ``mock.provider`` sign tokens the server accepts, and
the server refuses any other signature because it knows the key."""

import base64
import json
import re
import ssl
import time

import httpx
import jwt
import pytest

import apns_mock
from apns_mock import Mock, ProviderCredentials
from conftest import KEY_FILE, KEY_ID, TOPIC


def push(server, token, authorization):
    """One push over HTTP/2 with the given provider token; returns the answer."""
    with httpx.Client(http2=True, verify=ssl.create_default_context(cafile=server.ca_path), timeout=10) as client:
        return client.post(f"{server.apns_url}/3/device/{token}", content=b'{"aps":{"alert":"hi"}}',
                           headers={"authorization": f"bearer {authorization}", "apns-topic": TOPIC,
                                    "apns-push-type": "alert"})


def with_zero_signature(token):
    """The token's header and claims with 64 zero bytes as the signature."""
    header_and_claims = token.rsplit(".", 1)[0]
    return f"{header_and_claims}.{base64.urlsafe_b64encode(bytes(64)).rstrip(b'=').decode()}"


def assert_refused(answer):
    assert answer.status_code == 403, answer.text
    assert answer.json() == {"reason": "InvalidProviderToken"}


def test_a_push_signed_with_the_provider_token_is_accepted(apns):
    device = apns.token()
    answer = push(apns, device, apns.provider.token())
    assert answer.status_code == 200, answer.text
    [record] = apns.wait(token=device)
    assert record["auth"]["method"] == "token" and record["auth"]["keyId"] == apns.provider.key_id
    assert record["apnsId"] == answer.headers["apns-id"]


def test_a_token_signed_by_another_key_or_not_at_all_is_refused(apns):
    provider = apns.provider
    impostor = ProviderCredentials.generate(provider.key_id, provider.team_id)
    assert_refused(push(apns, apns.token(), impostor.token()))
    assert_refused(push(apns, apns.token(), with_zero_signature(provider.token())))
    assert push(apns, apns.token(), provider.token()).status_code == 200


def test_the_token_is_a_standard_es256_jwt_reused_for_50_minutes(tmp_path):
    now = [1_700_000_000.0]
    provider = ProviderCredentials.generate(team_id="TEAM123456")
    provider._clock = lambda: now[0]
    provider.write(tmp_path)
    first = provider.token()

    header = json.loads(base64.urlsafe_b64decode(first.split(".")[0] + "=="))
    assert header == {"alg": "ES256", "kid": provider.key_id}
    claims = jwt.decode(first, provider.public_key_pem, algorithms=["ES256"])
    assert claims == {"iss": "TEAM123456", "iat": 1_700_000_000}
    assert len(base64.urlsafe_b64decode(first.split(".")[2] + "==")) == 64  # JOSE R||S, not DER

    now[0] += 49 * 60
    assert provider.token() == first
    now[0] += 60
    second = provider.token()
    assert second != first and jwt.decode(second, provider.public_key_pem, algorithms=["ES256"])["iat"] == now[0]


def test_a_generated_key_is_written_as_a_p8_file_of_ten_character_id(apns):
    provider = apns.provider
    assert re.fullmatch("[A-Z0-9]{10}", provider.key_id)
    assert provider.team_id == "MOCKTEAM00"
    assert provider.key_path.endswith(f"AuthKey_{provider.key_id}.p8")
    key = open(provider.key_path).read()
    assert key.startswith("-----BEGIN PRIVATE KEY-----")
    # What a provider library does with the file: PyJWT signs, the mock accepts.
    token = jwt.encode({"iss": provider.team_id, "iat": int(time.time())}, key, algorithm="ES256",
                       headers={"kid": provider.key_id})
    assert push(apns, apns.token(), token).status_code == 200


def test_the_credentials_outlive_the_tests_reset(apns):
    apns.reset()
    assert push(apns, apns.token(), apns.provider.token()).status_code == 200
    assert_refused(push(apns, apns.token(), with_zero_signature(apns.provider.token())))


def test_a_mock_knows_its_key_again_after_a_full_reset_and_a_remote_registers_it_again():
    with Mock() as mock:
        assert [key["keyId"] for key in mock.client.keys()] == [mock.provider.key_id]
        mock.client.reset()
        assert_refused(push(mock, "ab" * 32, with_zero_signature(mock.provider.token())))
        assert push(mock, "ab" * 32, mock.provider.token()).status_code == 200

        remote = apns_mock.Remote(mock.admin_url)
        try:
            assert remote.provider.key_id != mock.provider.key_id
            assert push(remote, "ab" * 32, remote.provider.token()).status_code == 200
            remote.client.reset()  # drops the key registered at run time; the Remote puts it back
            assert_refused(push(remote, "ab" * 32, with_zero_signature(remote.provider.token())))
            assert remote.provider.key_id in [key["keyId"] for key in mock.client.keys()]
        finally:
            remote.stop()
        # A Remote removes the key it generated; the mock's own stays.
        assert [key["keyId"] for key in mock.client.keys()] == [mock.provider.key_id]


def test_the_users_own_p8_named_by_environment_variables(monkeypatch):
    monkeypatch.setenv("APNS_MOCK_PROVIDER_KEY", str(KEY_FILE))
    monkeypatch.delenv("APNS_MOCK_PROVIDER_KEY_ID", raising=False)  # read from AuthKey_<id>.p8
    monkeypatch.setenv("APNS_MOCK_PROVIDER_TEAM_ID", "DEF123GHIJ")
    with Mock() as mock:
        provider = mock.provider
        assert (provider.key_path, provider.key_id, provider.team_id) == (str(KEY_FILE), KEY_ID, "DEF123GHIJ")
        assert not provider.generated
        assert push(mock, "ab" * 32, provider.token()).status_code == 200
        impostor = ProviderCredentials.generate(KEY_ID, "DEF123GHIJ")
        assert_refused(push(mock, "ab" * 32, impostor.token()))
    assert KEY_FILE.exists()  # the user's file is not the mock's to remove


def test_a_key_file_not_named_by_apple_needs_its_key_id(tmp_path):
    renamed = tmp_path / "signing.p8"
    renamed.write_bytes(KEY_FILE.read_bytes())
    with pytest.raises(ValueError, match="give the key id"):
        ProviderCredentials.from_file(renamed)
    assert ProviderCredentials.from_file(renamed, "KEY0000001").key_id == "KEY0000001"
    with pytest.raises(ValueError, match="not letters and digits"):
        ProviderCredentials.from_file(renamed, "KEY-1")


def test_the_plugin_reads_the_provider_key_from_the_ini_file_and_the_team_from_the_environment(
        pytester, monkeypatch, apns_mock):
    monkeypatch.setenv("APNS_MOCK_ADMIN_URL", apns_mock.admin_url)
    monkeypatch.setenv("APNS_MOCK_PROVIDER_TEAM_ID", "DEF123GHIJ")
    for variable in ("APNS_MOCK_PROVIDER_KEY", "APNS_MOCK_PROVIDER_KEY_ID"):
        monkeypatch.delenv(variable, raising=False)
    (pytester.path / "keys").mkdir()
    (pytester.path / "keys" / "AuthKey_ABC123DEFG.p8").write_bytes(KEY_FILE.read_bytes())
    pytester.makeini("[pytest]\napns_mock_provider_key = keys/AuthKey_ABC123DEFG.p8\n"
                     "apns_mock_provider_team_id = IGNORED000\n")
    pytester.makepyfile(test_inner=f'''
def test_inner(apns):
    assert apns.provider.key_path == {str(pytester.path / "keys" / "AuthKey_ABC123DEFG.p8")!r}
    assert (apns.provider.key_id, apns.provider.team_id) == ("ABC123DEFG", "DEF123GHIJ")
''')
    pytester.runpytest_inprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_aioapns_given_the_key_file_id_and_team_pushes_with_them(apns):
    """What the README tells a team: point the provider library at apns.provider's three values."""
    import asyncio
    from urllib.parse import urlsplit

    from aioapns import APNs, NotificationRequest
    from aioapns.connection import APNsDevelopmentClientProtocol

    address = urlsplit(apns.apns_url)
    APNsDevelopmentClientProtocol.APNS_SERVER, APNsDevelopmentClientProtocol.APNS_PORT = address.hostname, address.port
    provider, device = apns.provider, apns.token()

    async def send():
        client = APNs(key=open(provider.key_path).read(), key_id=provider.key_id, team_id=provider.team_id,
                      topic=TOPIC, use_sandbox=True, ssl_context=ssl.create_default_context(cafile=apns.ca_path))
        return await client.send_notification(NotificationRequest(device_token=device, message={"aps": {"alert": "hi"}}))

    result = asyncio.run(send())
    assert result.is_successful, result.description
    [record] = apns.wait(token=device)
    assert record["auth"]["keyId"] == provider.key_id
