"""The generated client (``_generated.py``) against the document the server serves and the server itself.

A server of its own: the calls below change server-wide state (faults, modes, the clock) that the
other tests, sharing a server under pytest-xdist, must not see.
"""

import re

import pytest
import yaml

import apns_mock
from apns_mock import AdminError, Client, WaitTimeout
from apns_mock import _generated
from apns_mock._generated import GeneratedClient

# The operations the clients leave out: the dashboard's pages (a browser's) and /mcp (an assistant's).
SKIPPED_PATHS = {"/", "/dashboard.js", "/dashboard.css", "/mcp"}
METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


def snake_case(name):
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower()


def required(typed_dict, answer):
    """The keys the document requires that the answer lacks."""
    return sorted(set(typed_dict.__required_keys__) - set(answer))


@pytest.fixture(scope="module")
def server():
    with apns_mock.Mock() as mock:
        yield mock


@pytest.fixture(scope="module")
def operations(server):
    document = yaml.safe_load(server.client.open_api_document())
    return [(operation["operationId"], method.upper(), path)
            for path, item in document["paths"].items()
            for method, operation in item.items() if method in METHODS]


def test_snake_case_handles_acronym_runs():
    assert [snake_case(n) for n in ("listDeliveries", "openAPIDocument", "refuseTLS", "stopRefusingTLS")] == [
        "list_deliveries", "open_api_document", "refuse_tls", "stop_refusing_tls"]


def test_every_operation_of_the_served_document_is_a_method_of_the_client(operations):
    client_operations = [(o, m, p) for o, m, p in operations if p not in SKIPPED_PATHS]
    assert len(client_operations) >= 50 and len(client_operations) == len(operations) - 4
    missing = [o for o, _, _ in client_operations if not callable(getattr(Client, snake_case(o), None))]
    assert missing == []
    # The generated class has each one itself, in the document's order.
    assert list(_generated.OPERATIONS.items()) == [(o, snake_case(o)) for o, _, _ in client_operations]
    assert all(snake_case(o) in vars(GeneratedClient) for o, _, _ in client_operations)
    assert not hasattr(Client, "dashboard") and not hasattr(Client, "post_mcp")


def test_generated_server_methods(server):
    client = server.client
    assert client.health()["status"] == "ok"
    info = client.info()
    assert info["adminUrl"] == server.admin_url
    assert client.ca_certificate().startswith("-----BEGIN CERTIFICATE-----")
    assert "openapi: 3.1.0" in client.open_api_document()
    assert "# TYPE" in client.metrics()


def test_generated_device_methods(server):
    client = server.client
    token = "ab" * 32
    device = client.put_device(token, body={"topic": "com.example.app"})
    assert device["token"] == token and required(_generated.Device, device) == []
    listed = client.list_devices()
    assert token in [d["token"] for d in listed["devices"]]
    assert client.get_device(token)["topic"] == "com.example.app"
    assert client.unregister_device(token)["state"] == "unregistered"
    view = client.device_notifications(token, limit=5)
    assert required(_generated.DeviceView, view) == []
    assert client.delete_device(token) is None
    with pytest.raises(AdminError) as raised:
        client.get_device(token)
    assert raised.value.status == 404


def test_generated_fault_methods(server):
    client = server.client
    rule = {"match": {"token": "cd" * 32}, "action": {"respond": {"status": 503, "reason": "ServiceUnavailable"}}}
    put = GeneratedClient.put_fault(client, "generated-1", body=rule)
    assert put["id"] == "generated-1" and required(_generated.FaultRule, put) == []
    assert client.get_fault("generated-1")["action"] == rule["action"]
    added = GeneratedClient.add_fault(client, body=rule)
    assert [f["id"] for f in client.list_faults()["faults"]] == ["generated-1", added["id"]]
    assert client.delete_fault("generated-1") is None
    with pytest.raises(AdminError) as raised:
        client.get_fault("generated-1")
    assert raised.value.status == 404 and raised.value.code
    assert GeneratedClient.delete_faults(client) == {"removed": 1}


def test_generated_clock_mode_and_report_methods(server):
    client = server.client
    clock = client.get_clock()
    assert required(_generated.Clock, clock) == []
    moved = GeneratedClient.move_clock(client, body={"advance": "1m"})
    assert moved["offsetMs"] >= 60_000
    assert client.reset_clock()["offsetMs"] == 0
    assert required(_generated.Modes, client.get_modes()) == []
    assert client.refuse_tls(count=1)["refuseTls"] == 1
    assert client.stop_refusing_tls()["refuseTls"] == 0
    assert client.start_unavailable(for_="5s")["unavailable"] is True
    assert client.stop_unavailable()["unavailable"] is False
    assert "connections" in client.list_connections(state="open")
    assert required(_generated.Report, client.get_report(window="1h")) == []
    assert "keys" in client.list_keys() and "behaviors" in client.list_behaviors()
    assert "channels" in client.list_channels()


def test_generated_delivery_methods(server):
    client = server.client
    page = client.list_deliveries(tokenPrefix="abcdef", limit=1, order="desc")
    assert required(_generated.DeliveryPage, page) == [] and page["deliveries"] == []
    # A free-form matcher field, as a keyword (``__`` for a dot) and in ``match``.
    assert client.list_deliveries(payload__aps__badge=3, match={"headers.apns-topic": "x"})["deliveries"] == []
    assert GeneratedClient.delete_deliveries(client, tokenPrefix="abcdef") == {"deleted": 0}
    with pytest.raises(WaitTimeout) as raised:
        client.wait_for_deliveries(tokenPrefix="abcdef", timeout="100ms")
    assert raised.value.records == [] and "tokenPrefix=abcdef" in raised.value.query
    with pytest.raises(AdminError) as unknown:
        client.list_deliveries(tokn="ab")
    assert unknown.value.code == "badParameter"
