#!/usr/bin/env python3
"""Parked waiters and a wake-up probe against apns-mock, for bench/run.sh (standard library only).

  waiters.py --port ADMIN_PORT --apns-port APNS_PORT --jwt JWT --duration SECONDS
             [--waiters 100] [--probe-interval-ms 500] [--cacert certs/ca.pem]

Parks --waiters GET /v1/deliveries/wait requests whose matcher (a token nobody pushes to) never
matches, each on its own HTTP/1.1 connection, so they stay parked for the whole run. Meanwhile a
probe measures how soon a waiter is woken: every --probe-interval-ms it starts a wait on a fresh
token, pushes once to that token with curl (HTTP/2 over TLS, like the load), and records the time
from curl's answer to the wait's answer. The pushes of the load run do not match any of them.

Everything ends by itself: waits time out after --duration + 10 s, the probe stops after
--duration, every socket has a timeout. Prints one JSON line: waiters parked (and how many were
still parked at the end), probes, the wake-up latency p50/p99/max in ms, and errors.
"""

import argparse
import http.client
import json
import math
import os
import subprocess
import threading
import time

HOST = "127.0.0.1"  # loopback only


def percentile(values, p):
    if not values:
        return None
    values = sorted(values)
    return values[max(1, math.ceil(p / 100 * len(values))) - 1]


def park(port, token, timeout, results, index):
    """One parked wait; records whether it was still parked when the run ended."""
    try:
        connection = http.client.HTTPConnection(HOST, port, timeout=timeout + 15)
        connection.request("GET", f"/v1/deliveries/wait?count=1&timeout={timeout}&token={token}")
        response = connection.getresponse()
        response.read()
        results[index] = response.status  # 408: stayed parked until its timeout
        connection.close()
    except Exception as error:  # noqa: BLE001 - reported, never raised
        results[index] = f"error: {error}"


def probe(args, token):
    """One probe: a wait on `token`, a push to it; returns ms from the push's answer to the wait's."""
    answered = {}

    def wait():
        connection = http.client.HTTPConnection(HOST, args.port, timeout=30)
        connection.request("GET", f"/v1/deliveries/wait?count=1&timeout=20&token={token}")
        response = connection.getresponse()
        response.read()
        answered["at"] = time.monotonic()
        answered["status"] = response.status
        connection.close()

    waiter = threading.Thread(target=wait, daemon=True)
    waiter.start()
    time.sleep(0.05)  # the wait is parked before the push
    result = subprocess.run(
        [
            "curl", "-sS", "--http2", "--cacert", args.cacert, "-o", "/dev/null", "--max-time", "10",
            "-H", f"authorization: bearer {args.jwt}", "-H", "apns-topic: com.example.app",
            "--data-binary", '{"aps":{"alert":"probe"}}', f"https://localhost:{args.apns_port}/3/device/{token}",
        ],
        capture_output=True, timeout=20, check=False,
    )
    pushed = time.monotonic()
    waiter.join(timeout=25)
    if result.returncode != 0 or answered.get("status") != 200:
        raise RuntimeError(f"curl {result.returncode} {result.stderr[:200]!r}, wait {answered.get('status')}")
    # Negative when the wait answered before curl read its own answer: the waiter was first.
    return (answered["at"] - pushed) * 1000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--apns-port", type=int, required=True)
    parser.add_argument("--jwt", required=True)
    parser.add_argument("--duration", type=float, required=True)
    parser.add_argument("--waiters", type=int, default=100)
    parser.add_argument("--probe-interval-ms", type=float, default=500)
    parser.add_argument("--cacert", default="certs/ca.pem")
    args = parser.parse_args()

    parked_timeout = int(args.duration) + 10
    results = [None] * args.waiters
    threads = []
    for index in range(args.waiters):
        token = f"{index:08x}" + os.urandom(28).hex()
        thread = threading.Thread(target=park, args=(args.port, token, parked_timeout, results, index), daemon=True)
        thread.start()
        threads.append(thread)
    latencies, errors = [], []
    end = time.monotonic() + args.duration
    while time.monotonic() < end:
        started = time.monotonic()
        try:
            latencies.append(probe(args, "ffff" + os.urandom(30).hex()))
        except Exception as error:  # noqa: BLE001 - reported, never raised
            errors.append(str(error))
        time.sleep(max(0, args.probe_interval_ms / 1000 - (time.monotonic() - started)))
    parked_at_end = sum(1 for result in results if result is None)
    for thread in threads:
        thread.join(timeout=parked_timeout + 20)
    print(json.dumps({
        "waiters": args.waiters,
        "parked_at_end": parked_at_end,
        "timed_out": sum(1 for result in results if result == 408),
        "probes": len(latencies),
        "wake_p50_ms": round(percentile(latencies, 50), 2) if latencies else None,
        "wake_p99_ms": round(percentile(latencies, 99), 2) if latencies else None,
        "wake_max_ms": round(max(latencies), 2) if latencies else None,
        "errors": len(errors) + sum(1 for result in results if isinstance(result, str)),
        "first_error": (errors + [r for r in results if isinstance(r, str)] + [None])[0],
    }))


if __name__ == "__main__":
    main()
