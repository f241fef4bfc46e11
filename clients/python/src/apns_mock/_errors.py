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
    """One record as one line, as ``apns-mock deliveries`` prints it."""
    parts = [f"#{record.get('sequence', '?')}"]
    response = record.get("response") or {}
    if response.get("status") is not None:
        reason = response.get("reason")
        parts.append(f"{response['status']}" + (f" {reason}" if reason else ""))
    else:
        parts.append(str(record.get("outcome") or "pending"))
    parts.append(str(record.get("kind") or "push"))
    token = record.get("token")
    if token:
        parts.append(f"{token[:8]}…{token[-4:]}" if len(token) > 16 else token)
    for label, field in (("channel ", "channelId"), ("", "topic"), ("", "pushType"), ("apns-id ", "apnsId"), ("fault ", "faultId")):
        value = record.get(field)
        if value is not None:
            parts.append(f"{label}{value}")
    return "  ".join(parts)


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
    gives them (``[{sequence, satisfied, of, differences: [{field, expected, actual}], record}]``),
    ``query`` the query string waited on and ``dashboard`` a link to the dashboard filtered by it.
    ``str()`` prints them as ``apns-mock wait`` does. It is an ``AssertionError``, so a test that
    waits fails (rather than errors) when the push never comes.
    """

    def __init__(
        self,
        count: int,
        timeout: Any,
        query: str,
        records: List[Dict[str, Any]],
        near_misses: List[Dict[str, Any]],
        dashboard: Optional[str] = None,
    ) -> None:
        self.count = count
        self.timeout = timeout
        self.query = query
        self.records = records
        self.near_misses = near_misses
        self.dashboard = dashboard
        super().__init__(self._text())

    def _text(self) -> str:
        wanted = self.count
        timeout = self.timeout if isinstance(self.timeout, str) else f"{self.timeout}s"
        lines = [
            f"timed out after {timeout}: {len(self.records)} of {wanted} record{'' if wanted == 1 else 's'} matched"
            + (f" {self.query}" if self.query else "")
        ]
        lines += [f"  matched: {record_line(r)}" for r in self.records]
        if self.near_misses:
            lines.append("closest records:")
            for miss in self.near_misses:
                record = miss.get("record") or {}
                lines.append(f"  {record_line(record)}  ({miss.get('satisfied')} of {miss.get('of')} conditions hold)")
                for difference in miss.get("differences") or []:
                    actual = difference.get("actual")
                    lines.append(
                        f"    {difference.get('field')}: expected {difference.get('expected')}, "
                        f"got {'(none)' if actual is None else actual}"
                    )
        elif self.query:
            lines.append("no recent record matches any of the conditions")
        if self.dashboard:
            lines.append(f"dashboard: {self.dashboard}")
        return "\n".join(lines)
