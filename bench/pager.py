#!/usr/bin/env python3
"""A client paging through apns-mock's recorded deliveries, for bench/run.sh (standard library only).

  pager.py --port ADMIN_PORT --duration SECONDS [--limit 100] [--param KEY=VALUE ...]
           [--pause-ms 0] [--timeout 10] [--parse scan|json]

Pages through GET http://127.0.0.1:ADMIN_PORT/v1/deliveries one request at a time, each sent after
the previous answer was read: ascending order, `limit` records a page, no cursor on the first page,
then `since=<next>` of the previous answer. When `next` is null the pager has caught up with the
newest record; it then keeps polling from the last record it received (tailing new records; with
no record received yet, from where it was). Extra query parameters (--param topic=com.example.app)
are added to every page, so the store has to filter rather than page by arithmetic. --pause-ms
waits between pages (default 0: a page right after the previous answer).

One HTTP/1.1 connection is kept open across pages (keep-alive) as long as the server keeps it;
a new one is opened when the server closes it or after an error. Every socket operation has a
timeout, new pages are sent only until --duration seconds have passed since the first one, so the
pager ends by itself after at most --duration + --timeout seconds. SIGTERM and SIGINT end it early
with the figures so far.

Prints one JSON line: pages fetched (200 answers), records received, errors (by kind, and the
first message), page latency p50/p99/max in ms (from sending the request to having read the whole
answer), pages/s and records/s over the actual duration, the pager's own CPU seconds, how many
connections it opened and whether keep-alive held, the cursor at the end and the parameters used.

--parse scan (the default) reads `next` and the record count from the answer's bytes (the store's
fixed JSON layout: each record opens with {"sequence":, the top-level "next" follows the array),
which costs the pager's core little; --parse json decodes every answer in full.
"""

import argparse
import http.client
import json
import math
import os
import re
import signal
import socket
import time
import urllib.parse

HOST = "127.0.0.1"  # loopback only
PATH = "/v1/deliveries"
TAIL_RE = re.compile(rb'"next":(null|\d+),"total":(\d+),"dropped":(\d+)')
LAST_SEQUENCE_RE = re.compile(rb'\{"sequence":(\d+)')


class Stop(Exception):
    """SIGTERM or SIGINT: stop and report."""


def on_signal(signum, _frame):
    raise Stop(signal.Signals(signum).name)


def percentile(sorted_values, p):
    """Nearest-rank percentile of an ascending list (as bench/report.py computes them)."""
    if not sorted_values:
        return None
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def parse_scan(body):
    """(next, records, last sequence, total, dropped) from the bytes of a deliveries page."""
    records = body.count(b'{"sequence":')
    tail = body.rfind(b'"next":')  # the top-level keys come after the deliveries array
    m = TAIL_RE.match(body, tail) if tail >= 0 else None
    if not m:
        raise ValueError(f"no \"next\", \"total\", \"dropped\" at the end of the answer: {body[-120:]!r}")
    nxt = None if m.group(1) == b"null" else int(m.group(1))
    last = None
    if records:
        start = body.rfind(b'{"sequence":')
        s = LAST_SEQUENCE_RE.match(body, start)
        last = int(s.group(1)) if s else None
    return nxt, records, last, int(m.group(2)), int(m.group(3))


def parse_json(body):
    doc = json.loads(body)
    deliveries = doc["deliveries"]
    last = deliveries[-1]["sequence"] if deliveries else None
    return doc["next"], len(deliveries), last, doc.get("total"), doc.get("dropped")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True, help="apns-mock's admin port on 127.0.0.1")
    parser.add_argument("--duration", type=float, required=True, help="seconds to page for")
    parser.add_argument("--limit", type=int, default=100, help="records per page (default 100)")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="an extra query parameter for every page, e.g. topic=com.example.app")
    parser.add_argument("--pause-ms", type=float, default=0.0, help="pause between pages (default 0)")
    parser.add_argument("--timeout", type=float, default=10.0, help="socket timeout in seconds (default 10)")
    parser.add_argument("--parse", choices=("scan", "json"), default="scan",
                        help="how answers are read (default scan; see above)")
    args = parser.parse_args()
    extra = []
    for item in args.param:
        key, sep, value = item.partition("=")
        if not sep or not key:
            parser.error(f"--param wants KEY=VALUE, got {item!r}")
        if key in ("since", "before", "order", "limit"):
            parser.error(f"--param {key} is set by the pager itself")
        extra.append((key, value))
    parse = parse_scan if args.parse == "scan" else parse_json

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    latencies = []  # ms, answers with status 200 only
    errors = {}
    first_error = None
    pages = records = caught_up = connections = reused = closed_by_server = 0
    since = None
    last_total = last_dropped = None
    conn = None
    stopped_by = None
    cpu0 = os.times()
    t_start = time.monotonic()
    deadline = t_start + args.duration
    t_end = t_start

    def error(kind, message):
        nonlocal first_error
        errors[kind] = errors.get(kind, 0) + 1
        if first_error is None:
            first_error = f"{kind}: {message}"[:300]

    try:
        while time.monotonic() < deadline:
            query = [("limit", str(args.limit)), ("order", "asc")]
            if since is not None:
                query.append(("since", str(since)))
            query += extra
            target = PATH + "?" + urllib.parse.urlencode(query)
            if conn is None:
                conn = http.client.HTTPConnection(HOST, args.port, timeout=args.timeout)
                connections += 1
                fresh = True
            else:
                fresh = False
            t0 = time.monotonic()
            try:
                conn.request("GET", target, headers={"Accept": "application/json"})
                response = conn.getresponse()
                body = response.read()
                t1 = time.monotonic()
                will_close = response.will_close
            except (OSError, http.client.HTTPException) as e:
                t_end = time.monotonic()
                kind = "timeout" if isinstance(e, (socket.timeout, TimeoutError)) else type(e).__name__
                # A kept-alive connection the server closed between pages: retry once at once.
                if not fresh and isinstance(e, (http.client.RemoteDisconnected, BrokenPipeError,
                                                ConnectionResetError)):
                    closed_by_server += 1
                else:
                    error(kind, str(e))
                    time.sleep(0.05)  # no busy loop against a server that refuses
                conn.close()
                conn = None
                continue
            if not fresh:
                reused += 1
            if will_close:
                conn.close()
                conn = None
            t_end = t1
            if response.status != 200:
                error(f"http {response.status}", body[:200].decode("utf-8", "replace"))
                time.sleep(0.05)
                continue
            try:
                nxt, count, last, last_total, last_dropped = parse(body)
            except (ValueError, KeyError, TypeError, IndexError) as e:
                error("bad answer", str(e))
                continue
            pages += 1
            records += count
            latencies.append((t1 - t0) * 1000)
            if nxt is not None:
                since = nxt
            else:
                caught_up += 1
                if last is not None:
                    since = last  # tail: only records newer than the last one received
            if args.pause_ms > 0:
                time.sleep(args.pause_ms / 1000)
    except Stop as s:
        stopped_by = str(s)
    finally:
        if conn is not None:
            conn.close()
    cpu1 = os.times()
    duration = max(t_end - t_start, 1e-9)
    latencies.sort()

    def ms(v):
        return None if v is None else round(v, 3)

    out = {
        "pages": pages,
        "records": records,
        "errors": sum(errors.values()),
        "errors_by_kind": errors,
        "first_error": first_error,
        "p50_ms": ms(percentile(latencies, 50)),
        "p99_ms": ms(percentile(latencies, 99)),
        "max_ms": ms(latencies[-1] if latencies else None),
        "mean_ms": ms(sum(latencies) / len(latencies) if latencies else None),
        "duration_s": round(duration, 3),
        "pages_per_s": round(pages / duration, 1),
        "records_per_s": round(records / duration, 1),
        "caught_up_pages": caught_up,
        "cursor_end": since,
        "total_end": last_total,
        "dropped_end": last_dropped,
        "cpu_s": round((cpu1.user - cpu0.user) + (cpu1.system - cpu0.system), 3),
        "connections": connections,
        "keepalive": reused > 0,
        "closed_by_server": closed_by_server,
        "stopped_by": stopped_by,
        "params": {
            "url": f"http://{HOST}:{args.port}{PATH}",
            "limit": args.limit,
            "order": "asc",
            "extra": urllib.parse.urlencode(extra),
            "pause_ms": args.pause_ms,
            "duration_s": args.duration,
            "timeout_s": args.timeout,
            "parse": args.parse,
        },
    }
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
