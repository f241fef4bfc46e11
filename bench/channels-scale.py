#!/usr/bin/env python3
"""Live Activity channels at scale (make bench-channels; docs/BENCHMARKS.md, "Channels at scale").

Against the release build started afresh for each round, on 127.0.0.1 only, every step bounded:

1. one channel, SUBSCRIBERS devices (default 1,000,000) subscribed through the bulk endpoint,
   `POST /v1/channels/{id}/devices`, BATCH tokens a call: the time it takes;
2. a broadcast to it with curl (HTTP/2, TLS, token auth): the server's time to the 200
   (curl's time to the first byte less its time to the request), beside a broadcast to a
   channel of one device;
3. the fan-out: from the 200 until the last device's record is stored (deliveries are stored in
   token order; polled by that token, through the token index), then checked: every device has
   its record (`GET /v1/deliveries?channelId=…&kind=push&limit=1`'s `total`, once);
4. the server's peak RSS (VmHWM) after all of it;
5. ONE_BY_ONE devices (default 100,000) subscribed one `PUT` at a time to another channel,
   over four keep-alive connections: the time it takes.

Prints each round and then the median of the rounds with their range. Environment: BENCH_BIN
(default .build/release/apns-mock), ROUNDS (3), SUBSCRIBERS, BATCH (100000), ONE_BY_ONE.
"""

import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
BIN = os.environ.get("BENCH_BIN", os.path.join(ROOT, ".build/release/apns-mock"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
SUBSCRIBERS = int(os.environ.get("SUBSCRIBERS", "1000000"))
BATCH = int(os.environ.get("BATCH", "100000"))
ONE_BY_ONE = int(os.environ.get("ONE_BY_ONE", "100000"))
CA = os.path.join(ROOT, "certs/ca.pem")


def token(index, prefix):
    return f"{prefix:02x}{index:014x}" + "ab" * 24


class Server:
    def __init__(self):
        self.process = subprocess.Popen(
            [BIN, "serve", "--port", "0", "--admin-port", "0", "--channels-port", "0", "--log-level", "error",
             "--record-capacity", str(SUBSCRIBERS + 10_000)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        self.apns = re.search(r"apns=(\S+)", line).group(1)
        self.admin_port = int(re.search(r"admin=http://127\.0\.0\.1:(\d+)", line).group(1))

    def call(self, method, path, body=None, connection=None):
        own = connection is None
        connection = connection or http.client.HTTPConnection("127.0.0.1", self.admin_port, timeout=120)
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers={"content-type": "application/json"})
        response = connection.getresponse()
        payload = response.read()
        if own:
            connection.close()
        if response.status >= 300:
            raise RuntimeError(f"{method} {path}: {response.status} {payload[:200]!r}")
        return json.loads(payload) if payload else None

    def channel(self):
        created = self.call("POST", "/v1/channels", {"bundleId": "com.example.app", "environment": "sandbox",
                                                      "messageStoragePolicy": 0})
        return created["channelId"]

    def rss_peak_mb(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


def quote(channel):
    return channel.replace("/", "%2F").replace("+", "%2B")


def broadcast_ms(server, channel, jwt):
    """The server's time to the broadcast's 200, in ms (curl's first byte less its pre-transfer)."""
    out = subprocess.run(
        ["curl", "-sS", "--http2", "--cacert", CA, "-o", "/dev/null", "-w", "%{http_code} %{time_pretransfer} "
         "%{time_starttransfer}", "--max-time", "60", "-H", f"authorization: bearer {jwt}", "-H",
         f"apns-channel-id: {channel}", "-H", "apns-push-type: LiveActivity", "-H", "apns-priority: 10", "-H",
         "apns-expiration: 0", "--data",
         '{"aps":{"timestamp":1700000060,"event":"update","content-state":{"score":"1-0"}}}',
         f"{server.apns}/4/broadcasts/apps/com.example.app"],
        capture_output=True, text=True, timeout=90, check=True).stdout.split()
    if out[0] != "200":
        raise RuntimeError(f"broadcast answered {out[0]}")
    return (float(out[2]) - float(out[1])) * 1000


def delivered(server, channel):
    page = server.call("GET", f"/v1/deliveries?channelId={quote(channel)}&kind=push&limit=1")
    return page["total"]


def reached(server, device):
    return server.call("GET", f"/v1/deliveries?token={device}&limit=1")["total"] > 0


def one_round(jwt):
    server = Server()
    try:
        result = {}
        small = server.channel()
        server.call("PUT", f"/v1/channels/{quote(small)}/devices/{token(0, 0xfe)}")
        big = server.channel()
        started = time.monotonic()
        for start in range(0, SUBSCRIBERS, BATCH):
            tokens = [token(index, 1) for index in range(start, min(start + BATCH, SUBSCRIBERS))]
            server.call("POST", f"/v1/channels/{quote(big)}/devices", {"tokens": tokens})
        result["bulk_s"] = time.monotonic() - started
        if server.call("GET", f"/v1/channels/{quote(big)}?limit=1")["subscribers"] != SUBSCRIBERS:
            raise RuntimeError("not every device was subscribed")
        result["broadcast_1_ms"] = broadcast_ms(server, small, jwt)
        result["broadcast_big_ms"] = broadcast_ms(server, big, jwt)
        answered = time.monotonic()
        last = token(SUBSCRIBERS - 1, 1)
        while not reached(server, last):
            if time.monotonic() - answered > 300:
                raise RuntimeError("the fan-out did not finish in 300 s")
            time.sleep(0.02)
        result["fan_out_s"] = time.monotonic() - answered
        if delivered(server, big) != SUBSCRIBERS:
            raise RuntimeError("the fan-out did not reach every device")
        result["rss_mb"] = server.rss_peak_mb()

        single = server.channel()
        counter = iter(range(ONE_BY_ONE))
        lock = threading.Lock()
        failures = []

        def subscribe_some():
            connection = http.client.HTTPConnection("127.0.0.1", server.admin_port, timeout=60)
            try:
                while True:
                    with lock:
                        index = next(counter, None)
                    if index is None:
                        return
                    server.call("PUT", f"/v1/channels/{quote(single)}/devices/{token(index, 2)}",
                                connection=connection)
            except Exception as error:  # reported below
                failures.append(error)

        started = time.monotonic()
        workers = [threading.Thread(target=subscribe_some) for _ in range(4)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=600)
        result["one_by_one_s"] = time.monotonic() - started
        if failures:
            raise failures[0]
        if server.call("GET", f"/v1/channels/{quote(single)}?limit=1")["subscribers"] != ONE_BY_ONE:
            raise RuntimeError("not every one-by-one subscription was kept")
        return result
    finally:
        server.stop()


def main():
    jwt = subprocess.run([BIN, "token", "--key", "certs/AuthKey_ABC123DEFG.p8", "--key-id", "ABC123DEFG",
                          "--team-id", "DEF123GHIJ"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.strip()
    rounds = []
    for number in range(ROUNDS):
        result = one_round(jwt)
        rounds.append(result)
        print(f"round {number + 1}: " + ", ".join(f"{key} {value:.2f}" for key, value in result.items()), flush=True)
    labels = {
        "bulk_s": (f"{SUBSCRIBERS:,} subscribed in bulk ({BATCH:,} a call)", "s", "≤ 30 s"),
        "broadcast_1_ms": ("broadcast to a channel of 1: server time to the 200", "ms", ""),
        "broadcast_big_ms": (f"broadcast to {SUBSCRIBERS:,}: server time to the 200", "ms", "≤ 5 ms"),
        "fan_out_s": (f"fan-out to {SUBSCRIBERS:,} complete after the 200", "s", "≤ 10 s"),
        "rss_mb": ("peak RSS", "MiB", "≤ 1024 MiB"),
        "one_by_one_s": (f"{ONE_BY_ONE:,} subscribed one PUT at a time", "s", "≤ 60 s"),
    }
    for key, (label, unit, target) in labels.items():
        values = [r[key] for r in rounds]
        print(f"{label}: median {statistics.median(values):.2f} {unit} (range {min(values):.2f}–{max(values):.2f}, "
              f"{len(values)} rounds){'; target ' + target if target else ''}")


if __name__ == "__main__":
    sys.exit(main())
