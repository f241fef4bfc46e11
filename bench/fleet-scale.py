#!/usr/bin/env python3
"""Device state for a fleet (make bench-fleet; docs/BENCHMARKS.md, issue 40).

Against the release build started afresh for each round, on 127.0.0.1 only, every step bounded:

1. DEVICES devices (default 1,000,000) set offline through the bulk call, `POST /v1/devices`, BATCH
   devices a call: the time it takes;
2. one `PUT` and one `GET /v1/devices/{token}` at that size: the median of SAMPLES calls each over
   one keep-alive connection, beside the same on a server with 10 devices;
3. the server's CPU time over IDLE seconds (default 60) doing nothing with those devices;
4. its peak RSS (VmHWM).

Prints each round, then the median of the rounds with their range. Environment: BENCH_BIN
(default .build/release/apns-mock), ROUNDS (3), DEVICES, BATCH (100000), SAMPLES (200), IDLE (60).
"""

import http.client
import json
import os
import re
import statistics
import subprocess
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
BIN = os.environ.get("BENCH_BIN", os.path.join(ROOT, ".build/release/apns-mock"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
DEVICES = int(os.environ.get("DEVICES", "1000000"))
BATCH = int(os.environ.get("BATCH", "100000"))
SAMPLES = int(os.environ.get("SAMPLES", "200"))
IDLE = float(os.environ.get("IDLE", "60"))
TICKS = os.sysconf("SC_CLK_TCK")


def token(index):
    return f"{index:016x}" + "cd" * 24


class Server:
    def __init__(self):
        self.process = subprocess.Popen(
            [BIN, "serve", "--port", "0", "--admin-port", "0", "--channels-port", "0", "--webpush-port", "0",
             "--log-level", "error"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        self.admin_port = int(re.search(r"admin=http://127\.0\.0\.1:(\d+)", line).group(1))
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

    def rss_peak_mb(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def stop(self):
        self.connection.close()
        self.process.terminate()
        self.process.wait(timeout=30)


def bulk(server, count):
    started = time.monotonic()
    for first in range(0, count, BATCH):
        devices = [{"token": token(index), "presence": "offline"} for index in range(first, min(count, first + BATCH))]
        body = json.dumps({"devices": devices}).encode()
        answer = server.call("POST", "/v1/devices", body)
        assert answer["count"] == len(devices), answer
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


def one_round():
    small = Server()
    try:
        bulk(small, 10)
        small_put, small_get = latencies_ms(small, 10)
    finally:
        small.stop()
    server = Server()
    try:
        seconds = bulk(server, DEVICES)
        put, get = latencies_ms(server, DEVICES)
        before = server.cpu_seconds()
        time.sleep(IDLE)
        idle = server.cpu_seconds() - before
        rss = server.rss_peak_mb()
    finally:
        server.stop()
    return {"bulk_s": seconds, "put_ms": put, "get_ms": get, "put10_ms": small_put, "get10_ms": small_get,
            "idle_cpu_pct": idle / IDLE * 100, "rss_mb": rss}


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
