#!/usr/bin/env python3
"""Device state for a fleet (make bench-fleet; docs/BENCHMARKS.md, issue 40).

Against the release build started afresh for each round, on 127.0.0.1 only, every step bounded:

1. DEVICES devices (default 1,000,000) set offline through the bulk call, `POST /v1/devices`, BATCH
   devices a call: the time the calls take (their bodies encoded beforehand);
2. one `PUT` and one `GET /v1/devices/{token}` at that size: the median of SAMPLES calls each over
   one keep-alive connection, beside the same on a server with 10 devices;
3. the server's CPU time over IDLE seconds (default 60) doing nothing with those devices;
4. its RSS then (VmRSS), and the memory a device costs: the RSS of a server with DEVICES devices
   less that of one with DEVICES / 2 (set the same way, so the bulk call's passing allocations
   are in both), over DEVICES / 2;
5. HELD pushes (default 100,000), one to each of the first HELD devices (offline) through h2load,
   expiring in an hour: APNs holds them; then the RSS with them held, and the time one clock move
   (`POST /v1/clock {"advance": "2h"}`) takes to expire them all (checked: HELD records
   `delivery=discarded`);
6. the peak RSS of the whole (VmHWM).

Prints each round, then the median of the rounds with their range. Environment: BENCH_BIN
(default .build/release/apns-mock), ROUNDS (3), DEVICES, BATCH (100000), SAMPLES (200), IDLE (60),
HELD (100000).
"""

import http.client
import json
import os
import re
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
BIN = os.environ.get("BENCH_BIN", os.path.join(ROOT, ".build/release/apns-mock"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
DEVICES = int(os.environ.get("DEVICES", "1000000"))
BATCH = int(os.environ.get("BATCH", "100000"))
SAMPLES = int(os.environ.get("SAMPLES", "200"))
IDLE = float(os.environ.get("IDLE", "60"))
HELD = int(os.environ.get("HELD", "100000"))
TICKS = os.sysconf("SC_CLK_TCK")


def token(index):
    return f"{index:016x}" + "cd" * 24


class Server:
    def __init__(self):
        self.process = subprocess.Popen(
            [BIN, "serve", "--port", "0", "--admin-port", "0", "--channels-port", "0", "--webpush-port", "0",
             "--log-level", "error", "--record-capacity", str(max(HELD, 1000) + SAMPLES + 1000),
             # h2load opens 64 streams at once; APNs's one stream until a token is verified refuses 63.
             "--auth-stream-limit", "off"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        self.admin_port = int(re.search(r"admin=http://127\.0\.0\.1:(\d+)", line).group(1))
        self.apns_port = int(re.search(r"apns=https://127\.0\.0\.1:(\d+)", line).group(1))
        self.connection = http.client.HTTPConnection("127.0.0.1", self.admin_port, timeout=300)

    def call(self, method, path, body=None):
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        self.connection.request(method, path, body=data, headers={"content-type": "application/json"})
        response = self.connection.getresponse()
        payload = response.read()
        if response.status >= 300:
            raise RuntimeError(f"{method} {path}: {response.status} {payload[:200]!r}")
        return json.loads(payload) if payload else None

    def cpu_seconds(self):
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS

    def rss_mb(self, field="VmRSS"):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def rss_peak_mb(self):
        return self.rss_mb("VmHWM")

    def stop(self):
        self.connection.close()
        self.process.terminate()
        self.process.wait(timeout=30)


def bulk(server, count):
    """Sets `count` devices offline in calls of BATCH; the seconds the calls take (the bodies are
    encoded beforehand: the figure is the server's, not Python's JSON encoder's)."""
    bodies = []
    for first in range(0, count, BATCH):
        devices = [{"token": token(index), "presence": "offline"} for index in range(first, min(count, first + BATCH))]
        bodies.append((len(devices), json.dumps({"devices": devices}).encode()))
    started = time.monotonic()
    for size, body in bodies:
        answer = server.call("POST", "/v1/devices", body)
        assert answer["count"] == size, answer
    return time.monotonic() - started


def latencies_ms(server, count):
    """Median ms of SAMPLES PUTs (a new device each) and of SAMPLES GETs (existing devices)."""
    puts, gets = [], []
    for sample in range(SAMPLES):
        started = time.perf_counter()
        server.call("PUT", f"/v1/devices/{token(count + 10 + sample)}", {"presence": "offline"})
        puts.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        server.call("GET", f"/v1/devices/{token(sample % max(count, 1))}")
        gets.append((time.perf_counter() - started) * 1000)
    return statistics.median(puts), statistics.median(gets)


def hold(server):
    """HELD pushes, one to each of the first HELD (offline) devices, through h2load over one
    connection; returns how long the clock move that expires them takes, in seconds."""
    jwt = subprocess.run([BIN, "token", "--key", "certs/AuthKey_ABC123DEFG.p8", "--key-id", "ABC123DEFG",
                          "--team-id", "DEF123GHIJ"], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
    expiration = str(int(time.time()) + 3600)
    with tempfile.TemporaryDirectory() as work:
        uris = os.path.join(work, "uris")
        with open(uris, "w") as out:
            for index in range(HELD):
                out.write(f"https://127.0.0.1:{server.apns_port}/3/device/{token(index)}\n")
        payload = os.path.join(work, "payload.json")
        with open(payload, "w") as out:
            out.write('{"aps":{"alert":{"title":"Held","body":"until the phone is back"}}}')
        run = subprocess.run(
            ["timeout", "-k", "5", "300", "h2load", "-i", uris, "-n", str(HELD), "-c", "1", "-m", "64", "-d", payload,
             "-H", "apns-topic: com.example.app", "-H", "apns-push-type: alert", "-H", "apns-priority: 10",
             "-H", f"apns-expiration: {expiration}", "-H", f"authorization: bearer {jwt}"],
            check=True, capture_output=True, text=True)
    # Every answer was a 200 (h2load's summary says so otherwise); wait for their records (30 s at most).
    deadline = time.monotonic() + 30
    while (stored := server.call("GET", "/v1/deliveries?delivery=stored&limit=1")["total"]) < HELD:
        assert time.monotonic() < deadline, f"{stored} of {HELD} pushes held after 30 s: {run.stdout[-600:]}"
        time.sleep(0.1)
    assert stored == HELD, f"{stored} pushes held, not {HELD}"
    started = time.monotonic()
    server.call("POST", "/v1/clock", {"advance": "2h"})
    seconds = time.monotonic() - started
    expired = server.call("GET", "/v1/deliveries?delivery=discarded&limit=1")["total"]
    assert expired == HELD, f"{expired} of {HELD} held pushes expired"
    return seconds


def one_round():
    small = Server()
    try:
        bulk(small, 10)
        small_put, small_get = latencies_ms(small, 10)
    finally:
        small.stop()
    half = Server()
    try:
        bulk(half, DEVICES // 2)
        half_rss = half.rss_mb()
    finally:
        half.stop()
    server = Server()
    try:
        seconds = bulk(server, DEVICES)
        put, get = latencies_ms(server, DEVICES)
        rss = server.rss_mb()
        before = server.cpu_seconds()
        time.sleep(IDLE)
        idle = server.cpu_seconds() - before
        expire = hold(server) if HELD else 0.0
        held_rss = server.rss_mb()
        peak = server.rss_peak_mb()
    finally:
        server.stop()
    return {"bulk_s": seconds, "put_ms": put, "get_ms": get, "put10_ms": small_put, "get10_ms": small_get,
            "idle_cpu_pct": idle / IDLE * 100, "rss_mb": rss,
            "bytes_per_device": (rss - half_rss) * 1024 * 1024 / (DEVICES - DEVICES // 2),
            "expire_held_s": expire, "rss_held_mb": held_rss, "rss_peak_mb": peak}


def main():
    rounds = []
    for number in range(1, ROUNDS + 1):
        result = one_round()
        rounds.append(result)
        print(f"round {number}: " + ", ".join(f"{key} {value:.3f}" for key, value in result.items()), flush=True)
    print(f"{DEVICES} devices, {ROUNDS} rounds (median, range):")
    for key in rounds[0]:
        values = [round[key] for round in rounds]
        print(f"  {key}: {statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})")


if __name__ == "__main__":
    main()
