"""Schemathesis hooks for OpenAPIConformanceTests: keep generated waits short.

The document says what the server accepts: `timeout` on GET /v1/deliveries/wait and `within`
in POST /v1/verify bodies may be up to 300 seconds, and `timeout` defaults to 30 seconds. A
generated case that is valid and waits longer than SHORT is sent with SHORT instead, so every
case answers quickly; invalid values (which the server must refuse) are sent unchanged.
"""

import re

import schemathesis
from hypothesis.internal import lambda_sources

# CPython 3.11 (up to 3.11.7 at least) can raise "SystemError: AST constructor recursion depth
# mismatch" from ast.parse deep in a stack; hypothesis parses source only to describe a filter
# lambda in a repr, so such a failure is a test-tool crash, not a finding: describe the lambda
# as unknown instead.
_describe_lambda = lambda_sources._lambda_description


def _describe_lambda_safely(f):
    try:
        return _describe_lambda(f)
    except SystemError:
        return "lambda: <unknown>"


lambda_sources._lambda_description = _describe_lambda_safely

SHORT = 0.2
MAXIMUM = 300.0
UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "": 1.0}
DURATION = re.compile(r"^([0-9]+(?:\.[0-9]+)?)(ms|s|m|h)?$")


def seconds(value):
    """The duration `value` stands for, as the server reads it, or None when it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value) if value >= 0 else None
    if isinstance(value, str):
        match = DURATION.match(value)
        if match:
            return float(match.group(1)) * UNITS[match.group(2) or ""]
    return None


def shortened(value):
    """`value`, or SHORT when it is a valid duration longer than SHORT."""
    parsed = seconds(value)
    if parsed is not None and SHORT < parsed <= MAXIMUM:
        return f"{int(SHORT * 1000)}ms"
    return value


def shorten_expectation(expectation):
    if not isinstance(expectation, dict):
        return
    if "within" in expectation:
        expectation["within"] = shortened(expectation["within"])
    steps = expectation.get("steps")
    for step in steps if isinstance(steps, list) else []:
        if isinstance(step, dict) and "within" in step:
            step["within"] = shortened(step["within"])


@schemathesis.hook
def before_call(context, case, kwargs):
    path = case.operation.path
    if path == "/v1/deliveries/wait":
        if case.query is None:
            case.query = {}
        timeout = case.query.get("timeout", "30")
        case.query["timeout"] = [shortened(v) for v in timeout] if isinstance(timeout, list) else shortened(timeout)
    elif path == "/v1/verify":
        body = case.body
        expectations = body.get("expect") if isinstance(body, dict) else body
        if isinstance(expectations, list):
            for expectation in expectations:
                shorten_expectation(expectation)
