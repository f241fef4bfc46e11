"""The exceptions of apns_mock."""

from __future__ import annotations

from typing import Any, Dict, List, Optional
from urllib.parse import quote


class AdminError(Exception):
    """An error answer of the admin API: ``{"error": {"code": …, "message": …}}``.

    ``code`` is the API's stable code (``badParameter``, ``notFound``, ``faultRuleExists``, …),
    ``message`` its sentence (an unknown matcher field's says "did you mean …"), ``status`` the
    HTTP status.
    """

    def __init__(self, status: int, code: str, message: str, method: str = "", path: str = "") -> None:
        self.status = status
        self.code = code
        self.message = message
        self.method = method
        self.path = path
        where = f"{method} {path}: " if method else ""
        super().__init__(f"{where}{status} {code}: {message}")


class MockStartError(RuntimeError):
    """The apns-mock process did not start: it exited, or printed no ready line in time.

    ``stderr`` holds what the process wrote to its standard error.
    """

    def __init__(self, message: str, stderr: str = "") -> None:
        self.stderr = stderr
        text = message
        if stderr.strip():
            text += "\n--- apns-mock stderr ---\n" + stderr.rstrip()
        super().__init__(text)


def record_line(record: Dict[str, Any]) -> str:
    """One record as one line: the ``summary`` the server renders for it (as ``apns-mock
    deliveries`` prints it)."""
    return str(record.get("summary") or f"#{record.get('sequence', '?')}")


def dashboard_link(admin_url: str, query: str = "", record: Optional[int] = None) -> str:
    """The dashboard's address showing the records that match ``query`` (a query string).

    The page reads its fragment: ``#filter=<the query string, percent-encoded>&record=<sequence>``.
    """
    parts = []
    if query:
        parts.append("filter=" + quote(query, safe=""))
    if record is not None:
        parts.append(f"record={record}")
    return admin_url.rstrip("/") + "/" + ("#" + "&".join(parts) if parts else "")


class WaitTimeout(AssertionError):
    """``GET /v1/deliveries/wait`` answered 408: fewer than ``count`` records matched in time.

    ``records`` are the records that did match, ``near_misses`` the closest others as the API
    gives them (``[{sequence, satisfied, of, differences: [{field, expected, actual, suggestion?}],
    record}]``), ``query`` the query string waited on and ``dashboard`` a link to the dashboard
    filtered by it. ``str()`` is the server's ``explanation``, the same words ``apns-mock wait``
    and Node's ``AdminClient.wait`` print. It is an ``AssertionError``, so a test that waits
    fails (rather than errors) when the push never comes.
    """

    def __init__(
        self,
        count: int,
        timeout: Any,
        query: str,
        records: List[Dict[str, Any]],
        near_misses: List[Dict[str, Any]],
        dashboard: Optional[str] = None,
        explanation: Optional[str] = None,
    ) -> None:
        self.count = count
        self.timeout = timeout
        self.query = query
        self.records = records
        self.near_misses = near_misses
        self.dashboard = dashboard
        self.explanation = explanation
        super().__init__(explanation if explanation is not None else self._fallback())

    def _fallback(self) -> str:
        # Only for a server too old to explain its 408 itself.
        timeout = self.timeout if isinstance(self.timeout, str) else f"{self.timeout}s"
        return f"timed out after {timeout}: {len(self.records)} of {self.count} matched {self.query}".rstrip()
