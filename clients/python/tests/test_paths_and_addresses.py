"""Paths and addresses a server is started or reached with. Paths in APNS_MOCK_ARGS (and Mock's args) are the caller's: the server runs in a directory of its
own, and resolves them against APNS_MOCK_BASE_DIRECTORY, which Mock sets to the caller's working
directory; a configuration file's own paths resolve against the file's directory."""

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from apns_mock import Mock


def test_a_relative_config_and_the_key_file_it_names_are_found(tmp_path, monkeypatch):
    key = ec.generate_private_key(ec.SECP256R1())
    (tmp_path / "config" / "keys").mkdir(parents=True)
    (tmp_path / "config" / "keys" / "k.pub.pem").write_bytes(key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    (tmp_path / "config" / "apns-mock.yaml").write_text(
        "setup:\n  keys:\n    - {keyId: RELPATH001, teamId: TEAM000001, publicKeyFile: keys/k.pub.pem}\n")
    monkeypatch.chdir(tmp_path)
    with Mock(args=["--config", "config/apns-mock.yaml"]) as mock:
        assert mock.directory != tmp_path
        keys = [k["keyId"] for k in mock.client.list_keys()["keys"]]
        assert "RELPATH001" in keys, keys


def test_advertised_urls_are_what_info_and_a_remote_client_give():
    """A server reached through remapped ports (a container's published ones) names them with
    --advertise-url and --advertise-channels-url: GET /v1/info, and so Remote, give those."""
    from apns_mock import Remote

    with Mock(args=["--advertise-url", "https://localhost:40001",
                    "--advertise-channels-url", "https://localhost:40002/"]) as mock:
        info = mock.client.info()
        assert info["apnsUrl"] == "https://localhost:40001"
        assert info["channelsUrl"] == "https://localhost:40002"
        remote = Remote(mock.admin_url)
        try:
            assert remote.apns_url == "https://localhost:40001"
            assert remote.channels_url == "https://localhost:40002"
        finally:
            remote.stop()
