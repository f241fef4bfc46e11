"""The pytest plugin seen from outside: inner pytest runs (pytester) against this session's server."""

import pytest

INNER_PUSH = '''
import json, ssl, time, pathlib
import httpx, jwt

def push(apns, token, payload):
    key = pathlib.Path({key!r}).read_text()
    provider = jwt.encode({{"iss": "DEF123GHIJ", "iat": int(time.time())}}, key, algorithm="ES256", headers={{"kid": "ABC123DEFG"}})
    with httpx.Client(http2=True, verify=ssl.create_default_context(cafile=apns.ca_path)) as client:
        return client.post(f"{{apns.apns_url}}/3/device/{{token}}", content=json.dumps(payload),
                           headers={{"authorization": f"bearer {{provider}}", "apns-topic": "com.example.app"}})
'''


@pytest.fixture
def inner(pytester, monkeypatch, apns_mock):
    """An inner pytest run using the server of this session through APNS_MOCK_ADMIN_URL."""
    from conftest import KEY_FILE

    monkeypatch.setenv("APNS_MOCK_ADMIN_URL", apns_mock.admin_url)
    pytester.makepyfile(inner_push=INNER_PUSH.format(key=str(KEY_FILE)))
    return pytester


def test_the_session_fixture_uses_the_server_named_by_APNS_MOCK_ADMIN_URL(inner, apns_mock):
    inner.makepyfile(test_inner=f'''
def test_inner(apns_mock, apns):
    assert type(apns_mock).__name__ == "Remote"
    assert apns.apns_url == {apns_mock.apns_url!r}
    assert open(apns.ca_path).read() == open({apns_mock.ca_path!r}).read()
''')
    inner.runpytest_inprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_a_failed_wait_fails_the_test_with_near_misses_and_a_dashboard_link(inner, apns_mock):
    inner.makepyfile(test_inner='''
from inner_push import push

def test_inner(apns):
    device = apns.token()
    assert push(apns, device, {"aps": {"alert": {"title": "Hello"}}}).status_code == 200
    apns.wait(token=device, payload__aps__alert__title="Goodbye", timeout="300ms")
''')
    result = inner.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*test_inner.py:6: apns.wait timed out after 300ms: 0 of 1 record matched*payload.aps.alert.title=Goodbye*",
        "closest records:",
        "*payload.aps.alert.title: expected Goodbye, got Hello",
        f"dashboard: {apns_mock.admin_url}/#filter=*tokenPrefix%3D*",
    ])


def test_fault_rules_of_a_test_are_removed_after_it(inner, apns_mock):
    inner.makepyfile(test_inner='''
def test_inner(apns):
    apns.put_fault("leftover", action={"hang": {}})
    assert [rule["id"] for rule in apns.faults()] == [apns.fault_id("leftover")]
''')
    inner.runpytest_inprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
    # Other tests add and remove rules meanwhile (pytest -n 4): look for this one only.
    assert [rule["id"] for rule in apns_mock.client.faults() if rule["id"].endswith(".leftover")] == []


def test_web_push_subscriptions_of_a_test_are_unsubscribed_after_it(inner, apns_mock, tmp_path):
    made = tmp_path / "subscription-id"
    inner.makepyfile(test_inner=f'''
def test_inner(apns):
    subscription = apns.webpush_subscription()
    assert subscription.endpoint.startswith(apns.webpush_url + "/")
    assert apns.client.get_web_push_subscription(subscription.id)["state"] == "active"
    open({str(made)!r}, "w").write(subscription.id)
''')
    inner.runpytest_inprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
    assert apns_mock.client.get_web_push_subscription(made.read_text())["state"] == "deleted"


def test_the_scope_refuses_a_query_it_cannot_limit(apns):
    with pytest.raises(ValueError, match="carry no device token"):
        apns.wait(kind="broadcast")
    with pytest.raises(ValueError, match="carry no device token"):
        apns.add_fault(match={"kind": "channel"}, action={"hang": {}})


def test_an_unreachable_APNS_MOCK_ADMIN_URL_is_named(pytester, monkeypatch):
    monkeypatch.setenv("APNS_MOCK_ADMIN_URL", "http://127.0.0.1:1")
    pytester.makepyfile(test_inner="def test_inner(apns):\n    pass\n")
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*APNS_MOCK_ADMIN_URL is http://127.0.0.1:1, but no apns-mock admin API answers there*"])


def test_an_APNS_MOCK_ADMIN_URL_naming_the_APNs_port_says_so(pytester, monkeypatch, apns_mock):
    from urllib.parse import urlsplit

    apns = f"http://127.0.0.1:{urlsplit(apns_mock.apns_url).port}"
    monkeypatch.setenv("APNS_MOCK_ADMIN_URL", apns)
    pytester.makepyfile(test_inner="def test_inner(apns):\n    pass\n")
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([f"*APNS_MOCK_ADMIN_URL is {apns}, but what answers there is not the admin API*"
                                 "it is an APNs port*"])
