#!/usr/bin/env python3
"""The readers every load run of apns-mock carries, for bench/run.sh (standard library only).

  readers.py --port ADMIN_PORT --ready-file FILE [--waiters 100] [--ready-timeout 8]
             [--max-seconds 600] [--timeout 10]

What a test session does beside the pushes, against apns-mock's admin port on 127.0.0.1:

- --waiters parked waits, GET /v1/deliveries/wait?count=1&timeout=300&token=<random token nobody
  pushes to>, each on its own HTTP/1.1 connection: none may be answered during the run;
- one unfiltered Server-Sent-Events reader on GET /v1/events (what the dashboard does): it
  receives one `delivery` event per record, and reads them as fast as they come, counting events
  and bytes (the chunked body is decoded; an event split across reads or chunks counts once).
  A `batch` event (the reader fell behind, more than 10,000 records: the server summarised a run
  of records instead of sending each) is counted with the records it covers: the matching ones
  it counts, those that had aged out, and its range. A `dropped` event (only with
  `behind=end`: records aged out of the store before the reader read them; the stream then ends)
  is recorded with the number of records missed.

It confirms they are in place before the load starts: the SSE answer's status is 200, and the
`apns_mock_waiters` gauge of GET /metrics has reached --waiters (and `apns_mock_event_streams`
at least 1). Then it writes --ready-file (bench/run.sh waits for it) and keeps reading until
SIGTERM or SIGINT (or --max-seconds, a backstop), then prints one JSON line: whether it was
ready and how long that took, waiters opened and still parked at the end (answered ones with
their first status line), SSE status, delivery events and bytes, batch events (and the records
they count, aged out and cover, and the highest sequence number seen), whether the stream ended,
the process's CPU seconds, errors (count and the first message). When not ready within --ready-timeout it
prints the line with "ready": false and exits 1.

Every socket has a timeout; one thread multiplexes them all (selectors), so the reader costs
h2load's core (it is pinned there, on purpose) as little as it can.
"""

import argparse
import http.client
import json
import os
import re
import selectors
import signal
import socket
import sys
import time

HOST = "127.0.0.1"  # loopback only
EVENT = b"\nevent: delivery\n"  # every delivery event has this line (after id:, or after the blank line)
# A reader so far behind that records aged out of the store before it read them gets this, then the stream ends.
DROPPED_RE = re.compile(rb'\nevent: dropped\ndata: \{"missed":(\d+)')
# A reader that fell behind gets runs of records summarised in these (one line of JSON each).
BATCH_RE = re.compile(rb'\nevent: batch\ndata: (\{[^\n]*\})\n')
GAUGE_RE = {
    "waiters": re.compile(rb"^apns_mock_waiters\s+([0-9.eE+-]+)\s*$", re.M),
    "event_streams": re.compile(rb"^apns_mock_event_streams\s+([0-9.eE+-]+)\s*$", re.M),
}

stop_requested = None


def on_signal(signum, _frame):
    global stop_requested
    stop_requested = signal.Signals(signum).name


class Chunked:
    """An incremental decoder of an HTTP/1.1 chunked body; feed() returns the decoded bytes."""

    def __init__(self):
        self.pending = b""
        self.remaining = 0  # bytes of the current chunk still to come
        self.skip = 0  # CRLF after a chunk's data
        self.done = False

    def feed(self, data):
        buf = self.pending + data if self.pending else data
        out = []
        pos = 0
        n = len(buf)
        while pos < n and not self.done:
            if self.remaining:
                take = min(self.remaining, n - pos)
                out.append(buf[pos:pos + take])
                pos += take
                self.remaining -= take
                if not self.remaining:
                    self.skip = 2
            elif self.skip:
                take = min(self.skip, n - pos)
                pos += take
                self.skip -= take
            else:
                end = buf.find(b"\r\n", pos)
                if end < 0:
                    if n - pos > 1024:
                        raise ValueError(f"no chunk-size line: {buf[pos:pos + 40]!r}")
                    break
                size = int(buf[pos:end].split(b";")[0].strip() or b"x", 16)
                pos = end + 2
                if size == 0:
                    self.done = True
                else:
                    self.remaining = size
        self.pending = buf[pos:] if not self.done else b""
        return b"".join(out)


def gauges(port, timeout):
    """The waiters and event-streams gauges of GET /metrics."""
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        connection.request("GET", "/metrics")
        response = connection.getresponse()
        body = response.read()
        if response.status != 200:
            raise RuntimeError(f"GET /metrics answered {response.status}")
    finally:
        connection.close()
    out = {}
    for key, pattern in GAUGE_RE.items():
        m = pattern.search(body)
        out[key] = float(m.group(1)) if m else None
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True, help="apns-mock's admin port on 127.0.0.1")
    parser.add_argument("--ready-file", required=True, help="written once every reader is in place")
    parser.add_argument("--waiters", type=int, default=100, help="parked waits (default 100)")
    parser.add_argument("--ready-timeout", type=float, default=8.0, help="seconds to get in place (default 8)")
    parser.add_argument("--max-seconds", type=float, default=600.0, help="backstop: stop after this long")
    parser.add_argument("--timeout", type=float, default=10.0, help="socket timeout, seconds (default 10)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    t_start = time.monotonic()
    cpu0 = os.times()
    errors = []

    def error(message):
        errors.append(str(message)[:300])

    selector = selectors.DefaultSelector()
    waiters = {}  # socket -> {"answer": first bytes or None, "closed": bool}
    out = {"ready": False, "waiters": args.waiters, "waiters_opened": 0}

    # The parked waits: each its own connection, a token nobody pushes to.
    for index in range(args.waiters):
        token = f"{index:08x}" + os.urandom(28).hex()
        request = (
            f"GET /v1/deliveries/wait?count=1&timeout=300&token={token} HTTP/1.1\r\n"
            f"Host: {HOST}:{args.port}\r\nAccept: application/json\r\n\r\n"
        ).encode()
        try:
            s = socket.create_connection((HOST, args.port), timeout=args.timeout)
            s.sendall(request)
            s.setblocking(False)
        except OSError as e:
            error(f"waiter {index}: {e}")
            continue
        waiters[s] = {"answer": None, "closed": False}
        selector.register(s, selectors.EVENT_READ, "waiter")
    out["waiters_opened"] = len(waiters)

    # The SSE reader: its headers are read blocking (with the timeout), the body through the selector.
    sse = None
    sse_status = None
    sse_missed = None  # from a `dropped` event
    sse_chunked = None
    sse_events = sse_bytes = sse_body_bytes = 0
    sse_ended = False
    sse_ended_at = None  # seconds after the readers were in place
    batches = {"events": 0, "count": 0, "aged_out": 0, "covered": 0, "last_to": None}
    batch_tail = b"\n"  # the end of the body read so far, where a batch event may be incomplete
    carry = b"\n"  # the stream starts as if after a line end; then the tail of the previous read
    dropped_tail = None  # the stream from a `dropped` event on, until its data line is read

    def count(body):
        """Delivery events in the decoded body; `carry` keeps the tail of the previous piece, so an
        event line split across pieces counts once, and none counts twice."""
        nonlocal sse_events, carry, sse_missed, dropped_tail, batch_tail
        window = carry + body
        sse_events += window.count(EVENT)
        carry = window[-(len(EVENT) - 1):]
        scan = batch_tail + body
        end = 0
        for m in BATCH_RE.finditer(scan):
            batch = json.loads(m.group(1))
            batches["events"] += 1
            batches["count"] += batch["count"]
            batches["aged_out"] += batch["agedOut"]
            batches["covered"] += batch["to"] - batch["from"] + 1
            batches["last_to"] = batch["to"]
            end = m.end() - 1  # keep the line end: the next event's "\nevent:" starts there
        batch_tail = scan[end:][-8192:]
        if dropped_tail is None and b"event: dropped" in window:
            dropped_tail = window
        elif dropped_tail is not None:
            dropped_tail = (dropped_tail + body)[-65536:]
        if dropped_tail is not None:
            m = DROPPED_RE.search(dropped_tail)
            sse_missed = int(m.group(1)) if m else -1

    try:
        sse = socket.create_connection((HOST, args.port), timeout=args.timeout)
        sse.sendall(
            f"GET /v1/events HTTP/1.1\r\nHost: {HOST}:{args.port}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            data = sse.recv(65536)
            if not data:
                raise ConnectionError("the SSE connection closed before its headers")
            head += data
            if len(head) > 65536:
                raise ValueError("SSE headers larger than 64 KiB")
        head, _, rest = head.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        m = re.match(rb"HTTP/1\.[01] (\d{3})", lines[0])
        sse_status = int(m.group(1)) if m else None
        sse_chunked = any(
            line.lower().startswith(b"transfer-encoding:") and b"chunked" in line.lower() for line in lines[1:]
        )
        decoder = Chunked() if sse_chunked else None
        sse_bytes += len(rest)
        body = decoder.feed(rest) if decoder else rest
        sse_body_bytes += len(body)
        count(body)
        if sse_status != 200:
            error(f"GET /v1/events answered {sse_status}")
        sse.setblocking(False)
        selector.register(sse, selectors.EVENT_READ, "sse")
    except (OSError, ValueError) as e:
        error(f"SSE: {e}")
        decoder = None
        if sse is not None:
            sse.close()
        sse = None

    def read_ready(timeout):
        """One pass over the readable sockets."""
        nonlocal sse_bytes, sse_body_bytes, sse_ended, sse, sse_ended_at
        for key, _ in selector.select(timeout):
            s = key.fileobj
            try:
                data = s.recv(262144)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError as e:
                data = b""
                error(f"{key.data}: {e}")
            if key.data == "sse":
                if not data:
                    sse_ended = True
                    sse_ended_at = sse_ended_at or time.monotonic()
                    selector.unregister(s)
                    s.close()
                    sse = None
                    continue
                sse_bytes += len(data)
                try:
                    body = decoder.feed(data) if decoder else data
                except ValueError as e:
                    error(f"SSE: {e}")
                    body = b""
                sse_body_bytes += len(body)
                count(body)
                if decoder and decoder.done:
                    sse_ended = True
                    sse_ended_at = sse_ended_at or time.monotonic()
            else:
                state = waiters[s]
                if data:
                    if state["answer"] is None:
                        state["answer"] = data[:200].split(b"\r\n", 1)[0].decode("latin-1")
                else:
                    state["closed"] = True
                    selector.unregister(s)

    # In place: the SSE answer is 200 and the gauges show every waiter and the stream.
    ready_deadline = t_start + args.ready_timeout
    last_gauges = {}
    while stop_requested is None and not errors:
        try:
            last_gauges = gauges(args.port, min(args.timeout, 2.0))
        except (OSError, RuntimeError, http.client.HTTPException) as e:
            last_gauges = {"error": str(e)}
        if (
            sse is not None
            and sse_status == 200
            and (last_gauges.get("waiters") or 0) >= args.waiters
            and (last_gauges.get("event_streams") or 0) >= 1
            and all(not w["closed"] and w["answer"] is None for w in waiters.values())
        ):
            out["ready"] = True
            break
        if time.monotonic() > ready_deadline:
            error(f"not in place after {args.ready_timeout} s: SSE status {sse_status}, gauges {last_gauges}")
            break
        read_ready(0.05)
    out["ready_s"] = round(time.monotonic() - t_start, 3)
    out["gauges_at_ready"] = last_gauges
    if out["ready"]:
        tmp = args.ready_file + ".tmp"
        with open(tmp, "w") as f:
            f.write(json.dumps({"ready_s": out["ready_s"]}) + "\n")
        os.replace(tmp, args.ready_file)
        deadline = t_start + args.max_seconds
        while stop_requested is None and time.monotonic() < deadline:
            read_ready(0.2)
        if stop_requested is None:
            error(f"stopped by --max-seconds {args.max_seconds}")
    # A last look at what is already there, then the figures.
    read_ready(0)
    cpu1 = os.times()
    answered = [w["answer"] for w in waiters.values() if w["answer"] is not None]
    closed = sum(1 for w in waiters.values() if w["closed"] and w["answer"] is None)
    out.update({
        "parked_at_end": sum(1 for w in waiters.values() if w["answer"] is None and not w["closed"]),
        "waiters_answered": len(answered),
        "first_answer": answered[0] if answered else None,
        "waiters_closed": closed,
        "sse_status": sse_status,
        "sse_chunked": sse_chunked,
        "sse_events": sse_events,
        "sse_bytes": sse_bytes,
        "sse_body_bytes": sse_body_bytes,
        "sse_batches": batches["events"],
        "sse_batch_records": batches["count"],
        "sse_batch_aged_out": batches["aged_out"],
        "sse_batch_covered": batches["covered"],
        "sse_batch_last_to": batches["last_to"],
        "sse_ended": sse_ended,
        "sse_dropped_missed": sse_missed,
        "sse_ended_after_s": round(sse_ended_at - t_start, 3) if sse_ended_at else None,
        "duration_s": round(time.monotonic() - t_start, 3),
        "cpu_s": round((cpu1.user - cpu0.user) + (cpu1.system - cpu0.system), 3),
        "stopped_by": stop_requested,
        "errors": len(errors) + len(answered) + closed + (1 if sse_ended else 0),
    })
    if answered:
        errors.append(f"{len(answered)} waiter(s) answered, the first: {answered[0]}")
    if closed:
        errors.append(f"{closed} waiter connection(s) closed by the server")
    if sse_ended:
        errors.append("the SSE stream ended" + (
            f" (a dropped event: {sse_missed} records missed)" if sse_missed is not None else ""))
    out["first_error"] = errors[0] if errors else None
    for s in list(waiters):
        s.close()
    if sse is not None:
        sse.close()
    print(json.dumps(out), flush=True)
    return 0 if out["ready"] else 1


if __name__ == "__main__":
    sys.exit(main())
