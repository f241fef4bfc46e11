"""Tests meant for pytest-xdist (-n 4): each pushes to its own tokens on one shared server and
sees only its own records and its own fault rule, though every test names its rule ``outage``."""

import os

import pytest

from conftest import httpx_push


@pytest.mark.parametrize("case", range(8))
def test_each_test_sees_only_its_own_pushes(apns, apns_mock, case):
    if os.environ.get("PYTEST_XDIST_WORKER"):
        # One server for every worker: this worker reads it from the file the first one wrote.
        assert type(apns_mock).__name__ == "_Shared"
    apns.put_fault("outage", select={"first": 1}, action={"respond": {"status": 503, "reason": "ServiceUnavailable"}})
    device = apns.token()
    statuses = [httpx_push(apns, device, {"aps": {"alert": f"case {case} push {n}"}}).status_code for n in range(3)]
    assert statuses == [503, 200, 200]

    records = apns.wait(count=3, token=device)
    assert len(records) == 3
    assert all(r["token"].startswith(apns.prefix) for r in apns.deliveries())
    assert [r["payload"]["aps"]["alert"] for r in apns.deliveries()] == [f"case {case} push {n}" for n in range(3)]
    assert [r["token"] for r in apns.deliveries(faultId="outage")] == [device]
