"""The soak run behind `make soak` and `make test-soak` (issue 22).

usage: soak.py [--seconds S] [--binary PATH] [--capacity N] [--keep-work]

Starts `apns-mock serve` on free loopback ports with a small record capacity (so records are
evicted), adds fault rules, and for S seconds (default $SOAK_SECONDS, else 1800) keeps it busy
with, all at once and all bounded:

- h2load runs (-n bounded) over token connections to device tokens that fault rules delay, answer
  410 or 429, or reset; its first streams on a connection meet the one-stream-before-auth limit;
- a raw HTTP/2 client (the `h2` library, one stream at a time, so it knows the fate of every
  request it sends) pushing to tokens whose rules GOAWAY, drop the connection, hang, delay,
  split answers over DATA frames; broadcasts to a channel with subscribed devices; streams it
  cancels before their body ends, malformed requests, and a burst over the stream limit;
- httpx over HTTP/2, several requests in flight on one connection;
- the modes: `unavailable` for a second now and then, and, while the other clients pause,
  `shutdown` (GOAWAY to every connection, 503 Shutdown on new ones) and `refuse-tls`;
- admin readers: a waiter (GET /v1/deliveries/wait), an event stream (GET /v1/events, read and
  reconnected with Last-Event-ID), a pager walking GET /v1/deliveries with its cursor, and
  GET /metrics.

It samples the server's RSS (/proc/PID/status VmRSS) and open file descriptors (/proc/PID/fd)
every 2 s. It passes when, after a warm-up (the first 20 % of the run, at least 10 s):
- RSS is flat: the median of the last quarter of samples is at most max(16 MiB, 10 % of the RSS
  at the end of the warm-up) above the median of the first quarter after it;
- open fds are flat: during the run, at most 12 above the highest count of the warm-up; and once
  every client has gone, back to the count measured idle after the set-up, +-2;
- every request sent is accounted for: the requests the clients sent (h2load's "started", the raw
  client's and httpx's own counts) equal the records stored for requests (stored records minus
  the records a broadcast fans out to subscribed devices; held + evicted) plus the streams the
  server counted as refused before they became a request (apns_mock_requests_refused_total);
  and each of those records has one fate in the metrics: answered (apns_mock_requests_total) or
  not (apns_mock_requests_unanswered_total).
Prints a summary and exits 1 when a check fails.
"""

import argparse
import asyncio
import gc
import json
import os
import random
import re
import shutil
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions
import httpx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CA = os.path.join(ROOT, "certs", "ca.pem")
TOPIC = "com.example.app"
BUNDLE = "com.example.app"


def token(prefix, index=0):
    """A 64-hex device token starting with `prefix`, made unique by `index`."""
    tail = f"{index:08x}"
    return (prefix + "0" * 64)[: 64 - len(tail)] + tail


# Device tokens, by what the fault rules do to them (rules match on tokenPrefix).
H2LOAD_TOKENS = {
    "plain": token("a0"),
    "delayed": token("d1"),  # delay 5-30 ms, then the normal answer
    "gone": token("41"),  # 410 Unregistered
    "throttled": token("42"),  # every 3rd: 429 TooManyRequests
    "reset": token("e5"),  # RST_STREAM CANCEL with probability 0.2
}
RAW_TOKENS = {
    "plain": "c0",
    "goaway": "c1",  # GOAWAY NO_ERROR, the stream answered
    "close": "c2",  # the connection drops without an answer
    "hang": "c3",  # no answer, ever (the client gives up and closes)
    "slow503": "c4",  # 100-300 ms, then 503 ServiceUnavailable
    "split410": "c5",  # 410 over 3 DATA frames
    "goawayError": "c6",  # GOAWAY INTERNAL_ERROR, the stream answered, the connection closes
    "closeAnswered": "c7",  # answered, then the connection drops
    "waited": "c8",  # what the waiter waits for
}
HTTPX_TOKENS = [token("b0"), token("d1", 7), token("41", 7)]
SUBSCRIBERS = [token("f0", i) for i in range(3)]

FAULT_RULES = [
    {"id": "delay", "match": {"tokenPrefix": "d1"}, "action": {"delay": {"min": "5ms", "max": "30ms"}}},
    {"id": "gone", "match": {"tokenPrefix": "41"}, "action": {"respond": {"status": 410, "reason": "Unregistered"}}},
    {
        "id": "throttle",
        "match": {"tokenPrefix": "42"},
        "select": {"every": 3},
        "action": {"respond": {"status": 429, "reason": "TooManyRequests"}},
    },
    {
        "id": "reset",
        "match": {"tokenPrefix": "e5"},
        "select": {"probability": 0.2, "seed": 7},
        "action": {"resetStream": {"errorCode": "CANCEL"}},
    },
    {"id": "goaway", "match": {"tokenPrefix": "c1"}, "action": {"goaway": {"errorCode": "NO_ERROR"}}},
    {"id": "close", "match": {"tokenPrefix": "c2"}, "action": {"close": {"respondFirst": False}}},
    {"id": "hang", "match": {"tokenPrefix": "c3"}, "action": {"hang": {}}},
    {
        "id": "slow503",
        "match": {"tokenPrefix": "c4"},
        "action": {
            "delay": {"min": "100ms", "max": "300ms"},
            "respond": {"status": 503, "reason": "ServiceUnavailable"},
        },
    },
    {
        "id": "split410",
        "match": {"tokenPrefix": "c5"},
        "action": {"respond": {"status": 410, "reason": "Unregistered", "dataFrames": 3}},
    },
    {"id": "goawayError", "match": {"tokenPrefix": "c6"}, "action": {"goaway": {"errorCode": "INTERNAL_ERROR"}}},
    {"id": "closeAnswered", "match": {"tokenPrefix": "c7"}, "action": {"close": {"respondFirst": True}}},
]


def log(message):
    print(f"[soak {time.strftime('%H:%M:%S')}] {message}", flush=True)


class Failure(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# Metrics


def parse_metrics(text):
    """Prometheus text: {(name, labels-string): value}."""
    samples = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        match = re.match(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)$", line)
        if match:
            samples[(match.group(1), match.group(2) or "")] = float(match.group(3))
    return samples


def total(samples, name):
    return sum(value for (n, _), value in samples.items() if n == name)


def by_label(samples, name, label):
    out = {}
    for (n, labels), value in samples.items():
        if n == name:
            found = re.search(label + r'="([^"]*)"', labels)
            key = found.group(1) if found else ""
            out[key] = out.get(key, 0) + value
    return out


# ---------------------------------------------------------------------------------------------
# The gate: traffic that opens APNs connections enters it; the shutdown and refuse-tls modes
# close it, so that no request is on its way while every connection gets GOAWAY or a handshake
# is refused (a request written to a connection the server is closing may never be read: it
# could not be accounted for).


class Gate:
    def __init__(self):
        self.condition = threading.Condition()
        self.active = 0
        self.open = True
        self.generation = 0  # bumped at every closing: clients drop their connections

    def enter(self, stop):
        with self.condition:
            while not self.open and not stop.is_set():
                self.condition.wait(0.2)
            if stop.is_set():
                return None
            self.active += 1
            return self.generation

    def leave(self):
        with self.condition:
            self.active -= 1
            self.condition.notify_all()

    def close(self, timeout=120):
        with self.condition:
            self.open = False
            self.generation += 1
            deadline = time.time() + timeout
            while self.active > 0:
                if time.time() > deadline:
                    raise Failure("traffic did not pause within 120 s")
                self.condition.wait(0.2)

    def reopen(self):
        with self.condition:
            self.open = True
            self.condition.notify_all()


# ---------------------------------------------------------------------------------------------
# A raw HTTP/2 client: one connection, requests written whole, then read until each has a fate.


class RawClient:
    """Knows the fate of every request it writes: an answer, a reset, a GOAWAY, a closed
    connection, or no answer within the timeout (then it closes the connection)."""

    def __init__(self, port, jwt):
        self.port, self.jwt = port, jwt
        self.sock = None
        self.conn = None
        self.generation = -1

    def close(self):
        if self.sock is not None:
            try:
                self.sock.close()
            except OSError:
                pass
        self.sock, self.conn = None, None

    def connect(self, generation):
        self.close()
        context = ssl.create_default_context(cafile=CA)
        context.set_alpn_protocols(["h2"])
        raw = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        try:
            self.sock = context.wrap_socket(raw, server_hostname="localhost")
        except (ssl.SSLError, OSError):
            raw.close()
            raise
        config = h2.config.H2Configuration(
            client_side=True,
            header_encoding="utf-8",
            validate_outbound_headers=False,
            normalize_outbound_headers=False,
            validate_inbound_headers=False,
        )
        self.conn = h2.connection.H2Connection(config=config)
        self.conn.initiate_connection()
        self.generation = generation
        # The preface goes out with the first requests (a burst before the server's SETTINGS).

    def headers(self, device, extra=()):
        return [
            (":method", "POST"),
            (":scheme", "https"),
            (":authority", "localhost"),
            (":path", "/3/device/" + device),
            ("authorization", "bearer " + self.jwt),
            ("apns-topic", TOPIC),
            ("apns-push-type", "alert"),
            *extra,
        ]

    def exchange(self, requests, timeout=2.0):
        """`requests`: [(headers, body, how)] with how "whole", "cancel" (RST_STREAM before the
        body ends). Returns the fates, one per request: ("answered", status), ("reset", code),
        ("unprocessed",) above a GOAWAY's last stream, ("closed",), ("timeout",), ("cancelled",).
        Raises ConnectionError when the bytes could not be written."""
        streams = []
        for headers, body, how in requests:
            stream_id = self.conn.get_next_available_stream_id()
            streams.append((stream_id, how))
            if how == "cancel":
                self.conn.send_headers(stream_id, headers, end_stream=False)
                self.conn.send_data(stream_id, body[: len(body) // 2], end_stream=False)
                self.conn.reset_stream(stream_id, h2.errors.ErrorCodes.CANCEL)
            else:
                self.conn.send_headers(stream_id, headers, end_stream=False)
                self.conn.send_data(stream_id, body, end_stream=True)
        self.sock.sendall(self.conn.data_to_send())
        fates = {sid: ("cancelled",) for sid, how in streams if how == "cancel"}
        status = {}
        pending = {sid for sid, how in streams if how != "cancel"}
        deadline = time.time() + timeout
        connection_over = None
        while pending:
            remaining = deadline - time.time()
            if remaining <= 0:
                for sid in pending:
                    fates[sid] = ("timeout",)
                self.close()
                break
            self.sock.settimeout(remaining)
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                continue
            except (ssl.SSLError, OSError):
                data = b""
            if not data:
                for sid in pending:
                    fates[sid] = connection_over or ("closed",)
                self.close()
                break
            try:
                events = self.conn.receive_data(data)
            except h2.exceptions.ProtocolError:
                for sid in pending:
                    fates[sid] = ("closed",)
                self.close()
                break
            for event in events:
                if isinstance(event, h2.events.ResponseReceived):
                    status[event.stream_id] = int(dict(event.headers)[":status"])
                elif isinstance(event, h2.events.StreamEnded) and event.stream_id in pending:
                    fates[event.stream_id] = ("answered", status.get(event.stream_id))
                    pending.discard(event.stream_id)
                elif isinstance(event, h2.events.StreamReset) and event.stream_id in pending:
                    fates[event.stream_id] = ("reset", int(event.error_code))
                    pending.discard(event.stream_id)
                elif isinstance(event, h2.events.ConnectionTerminated):
                    last = event.last_stream_id or 0
                    for sid in list(pending):
                        if sid > last:
                            fates[sid] = ("unprocessed",)
                            pending.discard(sid)
                    connection_over = ("closed",)
                    self.generation = -1  # no new streams on it
            out = self.conn.data_to_send() if self.conn else b""
            if out and self.sock:
                try:
                    self.sock.sendall(out)
                except OSError:
                    pass
        if self.generation == -1:
            self.close()
        return [fates[sid] for sid, _ in streams]


class RawWorker(threading.Thread):
    """The raw client's loop: pushes to every fault token, broadcasts, cancelled streams,
    malformed requests, and a burst over the one-stream limit on a fresh connection."""

    def __init__(self, soak):
        super().__init__(name="raw", daemon=True)
        self.soak = soak
        self.client = RawClient(soak.apns_port, soak.jwt)
        self.lock = threading.Lock()
        self.sent = 0  # requests whose bytes were written whole (cancelled ones included)
        self.fates = {}
        self.broadcasts_ok = 0
        self.tls_refused = 0
        self.errors = []
        self.random = random.Random(22)
        self.index = 0

    def count(self, fates):
        for fate in fates:
            key = fate[0] if fate[0] != "answered" else f"answered {fate[1]}"
            self.fates[key] = self.fates.get(key, 0) + 1

    def payload(self):
        self.index += 1
        return json.dumps({"aps": {"alert": {"title": "soak", "body": f"push {self.index}"}}}).encode()

    def ensure(self, generation):
        if self.client.sock is None or self.client.generation != generation:
            self.client.connect(generation)

    def one(self, generation, requests, timeout=10.0):
        self.ensure(generation)
        try:
            fates = self.client.exchange(requests, timeout)
        except OSError as error:
            # The bytes may not all have left: these requests cannot be accounted for.
            self.errors.append(f"write failed: {error!r}")
            self.client.close()
            return None
        self.sent += len(requests)
        self.count(fates)
        return fates

    def step(self, generation):
        c = self.client
        choice = self.random.random()
        name = self.random.choice(list(RAW_TOKENS))
        if name == "waited":
            name = "plain"
        device = token(RAW_TOKENS[name], self.random.randrange(50))
        if choice < 0.08:
            # A burst of three on a fresh connection, before the server's SETTINGS: libnghttp2
            # refuses the streams over the one-stream limit.
            c.connect(generation)
            self.one(generation, [(c.headers(token("c0", i)), self.payload(), "whole") for i in range(3)])
            c.close()
        elif choice < 0.14:
            self.one(generation, [(c.headers(token("c0", 99)), self.payload(), "cancel")])
        elif choice < 0.18:
            # A connection-specific header: libnghttp2 resets the stream (PROTOCOL_ERROR).
            self.one(generation, [(c.headers(token("c0", 98), [("connection", "keep-alive")]), self.payload(), "whole")])
        elif choice < 0.30:
            self.broadcast(generation)
        elif choice < 0.36:
            self.one(generation, [(c.headers(token(RAW_TOKENS["waited"], self.random.randrange(4))), self.payload(), "whole")])
        else:
            # A hung stream is given up on after 0.5 s; any other answer may take a while on a
            # loaded machine (a debug build, h2load on the same cores).
            timeout = 0.5 if name == "hang" else 10.0
            fates = self.one(generation, [(c.headers(device), self.payload(), "whole")], timeout)
            if name in ("goaway", "goawayError", "close", "closeAnswered", "hang"):
                c.close()
            if fates and fates[0][0] == "timeout" and name != "hang":
                self.errors.append(f"no answer for {name} within 10 s")

    def broadcast(self, generation):
        c = self.client
        headers = [
            (":method", "POST"),
            (":scheme", "https"),
            (":authority", "localhost"),
            (":path", f"/4/broadcasts/apps/{BUNDLE}"),
            ("authorization", "bearer " + self.soak.jwt),
            ("apns-channel-id", self.soak.channel_id),
            ("apns-push-type", "LiveActivity"),
            ("apns-priority", "10"),
            ("apns-expiration", "0"),
        ]
        body = json.dumps(
            {"aps": {"timestamp": int(time.time()), "event": "update", "content-state": {"n": self.index}}}
        ).encode()
        fates = self.one(generation, [(headers, body, "whole")])
        if fates and fates[0] == ("answered", 200):
            self.broadcasts_ok += 1

    def during_shutdown(self, generation):
        """Inside the closed gate with the shutdown mode on: new connections get 503 Shutdown."""
        self.client.close()
        for i in range(2):
            self.one(generation, [(self.client.headers(token("c0", 200 + i)), self.payload(), "whole")])

    def during_refuse_tls(self, generation):
        """Inside the closed gate with refuse-tls count=1: one handshake fails, the next works."""
        self.client.close()
        try:
            self.client.connect(generation)
            self.errors.append("refuse-tls: the handshake succeeded")
        except (ssl.SSLError, OSError):
            self.tls_refused += 1
        self.client.close()
        self.one(generation, [(self.client.headers(token("c0", 210)), self.payload(), "whole")])

    def run(self):
        soak = self.soak
        while not soak.stop.is_set():
            generation = soak.gate.enter(soak.stop)
            if generation is None:
                break
            try:
                with self.lock:
                    self.step(generation)
            except Exception as error:  # noqa: BLE001 - reported, fails the run
                self.errors.append(f"raw client: {error!r}")
                self.client.close()
            finally:
                soak.gate.leave()
            time.sleep(0.01)
        self.client.close()


# ---------------------------------------------------------------------------------------------
# httpx over HTTP/2: several requests in flight on one connection.


class HttpxWorker(threading.Thread):
    def __init__(self, soak):
        super().__init__(name="httpx", daemon=True)
        self.soak = soak
        self.sent = 0
        self.statuses = {}
        self.errors = []

    async def batch(self, client, n):
        async def push(i):
            device = HTTPX_TOKENS[i % len(HTTPX_TOKENS)]
            response = await client.post(
                f"https://localhost:{self.soak.apns_port}/3/device/{device}",
                headers={"authorization": "bearer " + self.soak.jwt, "apns-topic": TOPIC, "apns-push-type": "alert"},
                content=b'{"aps":{"alert":"httpx"}}',
            )
            return response.status_code

        results = await asyncio.gather(*(push(i) for i in range(n)), return_exceptions=True)
        for result in results:
            self.sent += 1
            if isinstance(result, BaseException):
                self.errors.append(repr(result))
            else:
                self.statuses[result] = self.statuses.get(result, 0) + 1

    def new_client(self):
        context = ssl.create_default_context(cafile=CA)
        return httpx.AsyncClient(http2=True, http1=False, verify=context, timeout=10)

    async def main(self):
        soak = self.soak
        client, generation = None, -1
        while not soak.stop.is_set():
            entered = await asyncio.to_thread(soak.gate.enter, soak.stop)
            if entered is None:
                break
            try:
                if client is None or entered != generation:
                    if client is not None:
                        await client.aclose()
                    client, generation = self.new_client(), entered
                    # One request alone first: the connection starts with one stream.
                    await self.batch(client, 1)
                await self.batch(client, 8)
            except Exception as error:  # noqa: BLE001
                self.errors.append(f"httpx: {error!r}")
            finally:
                soak.gate.leave()
            await asyncio.sleep(0.05)
        if client is not None:
            await client.aclose()

    def run(self):
        asyncio.run(self.main())


# ---------------------------------------------------------------------------------------------
# h2load


H2LOAD_LINE = re.compile(
    r"requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout"
)


class H2loadWorker(threading.Thread):
    def __init__(self, soak, payload_file):
        super().__init__(name="h2load", daemon=True)
        self.soak = soak
        self.payload_file = payload_file
        self.runs = 0
        self.totals = [0] * 7
        self.errors = []
        self.process = None

    def run(self):
        soak = self.soak
        uris = [f"https://127.0.0.1:{soak.apns_port}/3/device/{t}" for t in H2LOAD_TOKENS.values()]
        while not soak.stop.is_set():
            if soak.gate.enter(soak.stop) is None:
                break
            try:
                command = [
                    "h2load", "-n", "1500", "-c", "2", "-m", "8", "-T", "30", "-N", "30",
                    "-d", self.payload_file,
                    "-H", "authorization: bearer " + soak.jwt,
                    "-H", "apns-topic: " + TOPIC,
                    "-H", "apns-push-type: alert",
                    *uris,
                ]  # fmt: skip
                self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                try:
                    output, _ = self.process.communicate(timeout=120)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    output, _ = self.process.communicate()
                    self.errors.append("h2load ran over 120 s")
                match = H2LOAD_LINE.search(output)
                if not match:
                    self.errors.append("h2load printed no result: " + output[-500:])
                else:
                    numbers = [int(x) for x in match.groups()]
                    self.totals = [a + b for a, b in zip(self.totals, numbers)]
                    self.runs += 1
            finally:
                soak.gate.leave()
            time.sleep(0.2)

    @property
    def started(self):
        return self.totals[1]


# ---------------------------------------------------------------------------------------------
# Admin readers


class Waiter(threading.Thread):
    """GET /v1/deliveries/wait for the next record to the waited tokens, again and again."""

    def __init__(self, soak):
        super().__init__(name="waiter", daemon=True)
        self.soak, self.satisfied, self.timed_out, self.errors = soak, 0, 0, []

    def run(self):
        since = 0
        with httpx.Client(base_url=self.soak.admin, timeout=30) as client:
            while not self.soak.stop.is_set():
                try:
                    r = client.get(
                        "/v1/deliveries/wait",
                        params={"count": 1, "timeout": "3s", "tokenPrefix": RAW_TOKENS["waited"], "since": since},
                    )
                    if r.status_code == 200:
                        self.satisfied += 1
                        records = r.json()["deliveries"]
                        since = max([since] + [d["sequence"] for d in records if "sequence" in d])
                    elif r.status_code == 408:
                        self.timed_out += 1
                    else:
                        self.errors.append(f"wait: {r.status_code} {r.text[:200]}")
                except httpx.HTTPError as error:
                    self.errors.append(f"wait: {error!r}")
                    time.sleep(0.5)


class EventReader(threading.Thread):
    """GET /v1/events for the raw client's tokens, read as they come; reconnects every 15 s with
    Last-Event-ID."""

    def __init__(self, soak):
        super().__init__(name="events", daemon=True)
        self.soak, self.events, self.reconnects, self.errors = soak, 0, 0, []

    def run(self):
        last_id = None
        while not self.soak.stop.is_set():
            headers = {"last-event-id": last_id} if last_id else {}
            opened = time.time()
            try:
                with httpx.Client(base_url=self.soak.admin, timeout=httpx.Timeout(10, read=5)) as client:
                    with client.stream("GET", "/v1/events", params={"tokenPrefix": "c"}, headers=headers) as r:
                        if r.status_code != 200:
                            self.errors.append(f"events: {r.status_code}")
                            time.sleep(1)
                            continue
                        for line in r.iter_lines():
                            if line.startswith("id:"):
                                last_id = line[3:].strip()
                            elif line.startswith("data:"):
                                self.events += 1
                            if self.soak.stop.is_set() or time.time() - opened > 15:
                                break
            except httpx.ReadTimeout:
                pass  # a quiet stream: reconnect
            except httpx.HTTPError as error:
                self.errors.append(f"events: {error!r}")
                time.sleep(0.5)
            self.reconnects += 1


class Pager(threading.Thread):
    """Walks GET /v1/deliveries with its cursor, ascending then descending, over and over."""

    def __init__(self, soak):
        super().__init__(name="pager", daemon=True)
        self.soak, self.pages, self.records, self.errors = soak, 0, 0, []

    def run(self):
        with httpx.Client(base_url=self.soak.admin, timeout=30) as client:
            while not self.soak.stop.is_set():
                for order, cursor_name in (("asc", "since"), ("desc", "before")):
                    cursor = None
                    while not self.soak.stop.is_set():
                        params = {"limit": 500, "order": order}
                        if cursor is not None:
                            params[cursor_name] = cursor
                        try:
                            r = client.get("/v1/deliveries", params=params)
                        except httpx.HTTPError as error:
                            self.errors.append(f"page: {error!r}")
                            break
                        if r.status_code != 200:
                            self.errors.append(f"page: {r.status_code} {r.text[:200]}")
                            break
                        body = r.json()
                        self.pages += 1
                        self.records += len(body["deliveries"])
                        cursor = body.get("next")
                        if cursor is None:
                            break
                        time.sleep(0.05)
                time.sleep(0.5)


class ModeChanger(threading.Thread):
    """Now and then: `unavailable` for a second (traffic goes on); `shutdown` and `refuse-tls`
    with the gate closed; a fault rule deleted and added back."""

    def __init__(self, soak, raw):
        super().__init__(name="modes", daemon=True)
        self.soak, self.raw = soak, raw
        self.changes = {}
        self.errors = []

    def note(self, name):
        self.changes[name] = self.changes.get(name, 0) + 1

    def run(self):
        soak = self.soak
        turn = 0
        with httpx.Client(base_url=soak.admin, timeout=30) as admin:
            while not soak.stop.wait(4):
                turn += 1
                try:
                    kind = turn % 4
                    if kind == 1:
                        admin.post("/v1/modes/unavailable", params={"for": "1s"}).raise_for_status()
                        self.note("unavailable")
                    elif kind == 2:
                        soak.gate.close()
                        try:
                            admin.post("/v1/modes/shutdown").raise_for_status()
                            with self.raw.lock:
                                self.raw.during_shutdown(soak.gate.generation)
                            admin.delete("/v1/modes/shutdown").raise_for_status()
                            self.note("shutdown")
                        finally:
                            soak.gate.reopen()
                    elif kind == 3:
                        soak.gate.close()
                        try:
                            admin.post("/v1/modes/refuse-tls", params={"count": 1}).raise_for_status()
                            with self.raw.lock:
                                self.raw.during_refuse_tls(soak.gate.generation)
                            self.note("refuse-tls")
                        finally:
                            soak.gate.reopen()
                    else:
                        rule = next(r for r in FAULT_RULES if r["id"] == "throttle")
                        admin.delete("/v1/faults/throttle").raise_for_status()
                        admin.post("/v1/faults", json=rule).raise_for_status()
                        self.note("fault rule re-added")
                except (httpx.HTTPError, Failure) as error:
                    self.errors.append(f"modes: {error!r}")


# ---------------------------------------------------------------------------------------------
# The run


class Soak:
    def __init__(self, args):
        self.args = args
        self.stop = threading.Event()
        self.gate = Gate()
        self.work = tempfile.mkdtemp(prefix="apns-mock-soak.")
        self.process = None
        self.samples = []  # (seconds since start, rss KiB, fds, connections)

    # The server

    def start(self):
        binary = self.args.binary
        if not os.access(binary, os.X_OK):
            raise Failure(f"{binary} is not an executable: build first (swift build)")
        if shutil.which("h2load") is None:
            raise Failure("h2load is missing: apt-get install nghttp2-client (make test-deps)")
        self.jwt = subprocess.check_output(
            [binary, "token", "--key", "certs/AuthKey_ABC123DEFG.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"],
            cwd=ROOT, text=True,
        ).strip()  # fmt: skip
        ready = os.path.join(self.work, "ready")
        self.stderr = open(os.path.join(self.work, "server.log"), "w")
        self.process = subprocess.Popen(
            [binary, "serve", "--port", "0", "--admin-port", "0", "--record-capacity", str(self.args.capacity),
             "--log-level", "error"],
            cwd=ROOT, stdout=open(ready, "w"), stderr=self.stderr,
        )  # fmt: skip
        deadline = time.time() + 60
        line = ""
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise Failure(f"apns-mock exited with {self.process.returncode} at start")
            with open(ready) as f:
                line = next((x for x in f if x.startswith("apns-mock ready")), "")
            if line:
                break
            time.sleep(0.1)
        if not line:
            raise Failure("apns-mock printed no ready line within 60 s")
        self.apns_port = int(re.search(r"apns=https://[^:]+:(\d+)", line).group(1))
        self.admin = re.search(r"admin=(\S+)", line).group(1)
        log(f"apns-mock pid {self.process.pid}: {line.strip()}")

    def stop_server(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def rss_kib(self):
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def fds(self):
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    def metrics(self):
        with httpx.Client(base_url=self.admin, timeout=30) as admin:
            r = admin.get("/metrics")
            r.raise_for_status()
            return parse_metrics(r.text)

    def wait_quiet(self, timeout=45):
        """Until the server has no APNs connection and no admin waiter or event stream left. An
        event stream whose reader hung up while nothing matched is noticed at its next keep-alive
        comment (every 15 s): the first write after the close may still succeed, the second fails,
        so up to 30 s."""
        started = time.time()
        while time.time() - started < timeout:
            # A client socket dropped on an error path closes when Python collects it.
            gc.collect()
            m = self.metrics()
            if total(m, "apns_mock_connections") == 0 and total(m, "apns_mock_event_streams") == 0 and total(
                m, "apns_mock_waiters"
            ) == 0:
                self.quiet_after = time.time() - started
                return m
            time.sleep(0.5)
        with httpx.Client(base_url=self.admin, timeout=30) as admin:
            live = admin.get("/v1/connections", params={"state": "open"}).text
        sockets = subprocess.run(["ss", "-tanp"], capture_output=True, text=True).stdout
        server_lines = [
            line for line in sockets.splitlines() if f"pid={self.process.pid}," in line and "LISTEN" not in line
        ]
        peers = {line.split()[4].rsplit(":", 1)[1] for line in server_lines if len(line.split()) > 4}
        client_lines = [
            line for line in sockets.splitlines() if any(f"127.0.0.1:{port} " in line for port in peers)
        ]
        live += "\nsockets of the server: " + " | ".join(server_lines)
        live += "\ntheir other ends: " + " | ".join(client_lines) + f" (this script is pid {os.getpid()})"
        raise Failure(
            f"still open {timeout} s after the clients stopped: "
            f"{total(m, 'apns_mock_connections'):.0f} connections, {total(m, 'apns_mock_waiters'):.0f} waiters, "
            f"{total(m, 'apns_mock_event_streams'):.0f} event streams; live connections: {live[-3000:]}"
        )

    def idle_fds(self, near=None, timeout=10):
        """The fd count once it settles (the admin client's own connection closed)."""
        deadline = time.time() + timeout
        previous = None
        while True:
            time.sleep(0.5)
            now = self.fds()
            if (near is not None and abs(now - near) <= 2) or now == previous or time.time() > deadline:
                return now
            previous = now

    # Set-up: faults, a channel with subscribers, and one round of everything (so lazily made
    # threads and buffers exist before the idle fd count).

    def setup(self):
        with httpx.Client(base_url=self.admin, timeout=30) as admin:
            for rule in FAULT_RULES:
                admin.post("/v1/faults", json=rule).raise_for_status()
            r = admin.post("/v1/channels", json={"bundleId": BUNDLE, "environment": "sandbox"})
            r.raise_for_status()
            self.channel_id = r.json()["channelId"]
            quoted = self.channel_id.replace("/", "%2F").replace("+", "%2B")
            for device in SUBSCRIBERS:
                admin.put(f"/v1/channels/{quoted}/devices/{device}").raise_for_status()
            admin.get("/v1/deliveries/wait", params={"count": 1, "timeout": "100ms"})
            admin.get("/v1/deliveries", params={"limit": 1})
        client = RawClient(self.apns_port, self.jwt)
        client.connect(0)
        fates = client.exchange([(client.headers(token("c0", 300)), b'{"aps":{"alert":"warm"}}', "whole")])
        client.close()
        if fates != [("answered", 200)]:
            raise Failure(f"the set-up push was not answered 200: {fates}")

    def sampler(self):
        start = self.started_at
        while not self.stop.wait(2):
            try:
                connections = total(self.metrics(), "apns_mock_connections")
                self.samples.append((time.time() - start, self.rss_kib(), self.fds(), connections))
            except (OSError, httpx.HTTPError) as error:
                self.sampler_error = repr(error)

    def run(self):
        self.start()
        self.sampler_error = None
        try:
            return self.soak()
        finally:
            self.stop.set()
            self.stop_server()
            if not self.args.keep_work:
                shutil.rmtree(self.work, ignore_errors=True)
            else:
                log(f"work directory kept: {self.work}")

    def soak(self):
        args = self.args
        self.setup()
        self.wait_quiet()
        self.idle_fd_count = self.idle_fds()
        idle_rss = self.rss_kib()
        before = self.metrics()
        log(f"idle after set-up: RSS {idle_rss / 1024:.1f} MiB, {self.idle_fd_count} fds; soaking {args.seconds} s")

        payload_file = os.path.join(self.work, "payload.json")
        with open(payload_file, "w") as f:
            json.dump({"aps": {"alert": {"title": "h2load", "body": "soak"}, "badge": 1}, "pad": "x" * 60}, f)

        raw = RawWorker(self)
        h2load = H2loadWorker(self, payload_file)
        httpx_worker = HttpxWorker(self)
        readers = [Waiter(self), EventReader(self), Pager(self)]
        modes = ModeChanger(self, raw)
        workers = [raw, h2load, httpx_worker, modes, *readers]
        self.started_at = time.time()
        sampler = threading.Thread(target=self.sampler, name="sampler", daemon=True)
        for worker in [*workers, sampler]:
            worker.start()
        next_report = time.time() + 60
        while time.time() - self.started_at < args.seconds:
            time.sleep(1)
            if time.time() >= next_report and self.samples:
                t, rss, fds, conns = self.samples[-1]
                log(f"{t:.0f} s: RSS {rss / 1024:.1f} MiB, {fds} fds, {conns:.0f} connections, h2load runs {h2load.runs}")
                next_report += 60
        log("stopping the clients")
        self.stop.set()
        if h2load.process and h2load.process.poll() is None:
            pass  # bounded: it finishes its -n
        for worker in [*workers, sampler]:
            worker.join(150)
            if worker.is_alive():
                raise Failure(f"{worker.name} did not stop within 150 s")
        # The modes thread uses the raw client too (inside the closed gate), and may have opened
        # a connection after the raw client's own last close.
        raw.client.close()
        after = self.wait_quiet()
        final_fds = self.idle_fds(near=self.idle_fd_count)
        return self.judge(before, after, raw, h2load, httpx_worker, readers, modes, idle_rss, final_fds)

    # The checks

    def judge(self, before, after, raw, h2load, httpx_worker, readers, modes, idle_rss, final_fds):
        d = {}
        for name in (
            "apns_mock_records_stored_total",
            "apns_mock_records_evicted_total",
            "apns_mock_requests_total",
            "apns_mock_requests_unanswered_total",
            "apns_mock_requests_refused_total",
        ):
            d[name] = round(total(after, name) - total(before, name))
        held = round(total(after, "apns_mock_records"))
        stored, evicted = d["apns_mock_records_stored_total"], d["apns_mock_records_evicted_total"]
        answered, unanswered = d["apns_mock_requests_total"], d["apns_mock_requests_unanswered_total"]
        refused = d["apns_mock_requests_refused_total"]
        refused_by_stage = {
            k: round(v - by_label(before, "apns_mock_requests_refused_total", "stage").get(k, 0))
            for k, v in by_label(after, "apns_mock_requests_refused_total", "stage").items()
        }
        fanout = raw.broadcasts_ok * len(SUBSCRIBERS)
        from_requests = stored - fanout
        sent = h2load.started + raw.sent + httpx_worker.sent
        failures = []

        # Accounting.
        if sent != from_requests + refused:
            failures.append(
                f"requests sent {sent} != recorded {from_requests} (stored {stored} - broadcast fan-out {fanout}) "
                f"+ refused before HTTP {refused}: {sent - from_requests - refused:+d} unaccounted"
            )
        if from_requests != answered + unanswered:
            failures.append(f"records for requests {from_requests} != answered {answered} + unanswered {unanswered}")
        stored_ever = round(total(after, "apns_mock_records_stored_total"))
        evicted_ever = round(total(after, "apns_mock_records_evicted_total"))
        if held + evicted_ever != stored_ever:
            failures.append(f"records held {held} + evicted {evicted_ever} != stored {stored_ever}")
        if evicted == 0:
            failures.append("no record was evicted: the capacity is too large for this run to test eviction")

        # RSS and fds.
        warmup = max(10.0, 0.2 * self.args.seconds)
        during = [s for s in self.samples if s[0] <= warmup]
        after_warmup = [s for s in self.samples if s[0] > warmup]
        rss_ok = fds_ok = False
        rss_growth = None
        if len(after_warmup) < 8 or not during:
            failures.append(f"too few samples after the warm-up ({len(after_warmup)}): run longer")
        else:
            quarter = max(2, len(after_warmup) // 4)
            first = statistics.median(s[1] for s in after_warmup[:quarter])
            last = statistics.median(s[1] for s in after_warmup[-quarter:])
            rss_growth = last - first
            tolerance = max(16 * 1024, 0.10 * during[-1][1])
            rss_ok = rss_growth <= tolerance
            if not rss_ok:
                failures.append(
                    f"RSS grew {rss_growth / 1024:.1f} MiB after the warm-up (median of the first quarter "
                    f"{first / 1024:.1f} MiB, of the last {last / 1024:.1f} MiB; tolerance {tolerance / 1024:.1f} MiB)"
                )
            warm_fd_max = max(s[2] for s in during)
            run_fd_max = max(s[2] for s in after_warmup)
            fds_ok = run_fd_max <= warm_fd_max + 12 and abs(final_fds - self.idle_fd_count) <= 2
            if run_fd_max > warm_fd_max + 12:
                failures.append(f"open fds reached {run_fd_max} after the warm-up (at most {warm_fd_max} during it)")
            if abs(final_fds - self.idle_fd_count) > 2:
                failures.append(f"open fds once idle: {final_fds}, {self.idle_fd_count} idle before the run")

        errors = raw.errors + httpx_worker.errors + h2load.errors + modes.errors
        for reader in readers:
            errors += reader.errors
        if self.sampler_error:
            errors.append("sampler: " + self.sampler_error)
        if errors:
            failures.append(f"{len(errors)} client errors, first: {errors[:5]}")
        if h2load.runs == 0:
            failures.append("no h2load run finished")

        # Summary.
        rss = [s[1] / 1024 for s in self.samples]
        fds = [s[2] for s in self.samples]
        w = print
        w("")
        w(f"soak summary: {self.args.seconds} s, record capacity {self.args.capacity}, {len(self.samples)} samples")
        w(
            f"  sent      {sent}: h2load {h2load.started} started in {h2load.runs} runs "
            f"(total/started/done/succeeded/failed/errored/timeout {'/'.join(map(str, h2load.totals))}), "
            f"raw h2 {raw.sent}, httpx {httpx_worker.sent}"
        )
        w(f"  raw h2    fates {dict(sorted(raw.fates.items()))}; broadcasts answered 200: {raw.broadcasts_ok}; "
          f"TLS refused: {raw.tls_refused}")  # fmt: skip
        w(f"  httpx     statuses {dict(sorted(httpx_worker.statuses.items()))}")
        w(
            f"  server    records stored {stored} (held {held} at the end, evicted {evicted} in the run); "
            f"broadcast fan-out {fanout}; records for requests {from_requests}"
        )
        w(f"            answered {answered}, unanswered {unanswered} "
          f"{ {k: round(v) for k, v in by_label(after, 'apns_mock_requests_unanswered_total', 'outcome').items()} }, "
          f"refused before HTTP {refused} {refused_by_stage}")  # fmt: skip
        w(f"  accounted {from_requests} recorded + {refused} refused = {from_requests + refused} of {sent} sent")
        w(
            f"  readers   waiter {readers[0].satisfied} satisfied / {readers[0].timed_out} timed out; "
            f"events {readers[1].events} in {readers[1].reconnects} connections; "
            f"pager {readers[2].pages} pages, {readers[2].records} records; modes {modes.changes}"
        )
        if rss:
            w(
                f"  RSS       idle {idle_rss / 1024:.1f} MiB; run min {min(rss):.1f} max {max(rss):.1f} MiB; "
                f"growth after the warm-up ({warmup:.0f} s) "
                f"{'n/a' if rss_growth is None else f'{rss_growth / 1024:+.1f} MiB'}"
            )
            w(
                f"  fds       idle {self.idle_fd_count}; run min {min(fds)} max {max(fds)}; idle at the end {final_fds} "
                f"(the server let go of every connection and stream {self.quiet_after:.1f} s after the clients stopped)"
            )
            step = max(1, len(self.samples) // 12)
            w("  series    " + ", ".join(f"{s[0]:.0f}s {s[1] / 1024:.0f}M/{s[2]}fd" for s in self.samples[::step]))
        if failures:
            w("FAIL")
            for failure in failures:
                w("  - " + failure)
            return 1
        w("PASS: RSS and open fds flat after the warm-up; every request sent is accounted for")
        return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=int, default=int(os.environ.get("SOAK_SECONDS", "1800")))
    parser.add_argument(
        "--binary", default=os.environ.get("APNS_MOCK", os.path.join(ROOT, ".build", "debug", "apns-mock"))
    )
    parser.add_argument("--capacity", type=int, default=int(os.environ.get("SOAK_CAPACITY", "5000")))
    parser.add_argument("--keep-work", action="store_true", help="keep the work directory (the server's log)")
    args = parser.parse_args()
    soak = Soak(args)
    try:
        code = soak.run()
    except Failure as failure:
        print(f"FAIL: {failure}", flush=True)
        code = 1
    sys.exit(code)


if __name__ == "__main__":
    main()
