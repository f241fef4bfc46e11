#!/usr/bin/env python3
"""Admin API latency of one or two apns-mock binaries, in interleaved rounds (standard library only).

  admin-latency.py BINARY [BASELINE_BINARY] [--rounds 5] [--requests 1000] [--records 1000]

Starts each binary once (`serve` on free ports with certs/server.pem), stores --records pushes in it
through its own APNs port (curl over HTTP/2, one connection), then runs rounds: in each round, for
each binary in turn, --requests sequential `GET /health` and then --requests sequential
`GET /v1/deliveries?limit=1` over one keep-alive HTTP/1.1 connection, each sent after the previous
answer was read whole. Prints, per binary and route, the median over rounds of the per-request mean
latency in microseconds, with the rounds' min and max, the server's CPU per request (utime+stime
of the process over the round, from /proc) and, with two binaries, the ratio of the medians.

Issue 37's bound: the admin API's latency stays within 1.5 x of the revision before it.
"""

import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROUTES = ["/health", "/v1/deliveries?limit=1"]


def start(binary):
    """Starts `binary serve` on free ports; returns (process, apns_port, admin_port)."""
    process = subprocess.Popen(
        [binary, "serve", "--port", "0", "--admin-port", "0", "--tls-cert", f"{ROOT}/certs/server.pem",
         "--tls-key", f"{ROOT}/certs/server-key.pem", "--log-level", "error"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    apns = re.search(r"apns=https://127\.0\.0\.1:(\d+)", line)
    admin = re.search(r"admin=http://127\.0\.0\.1:(\d+)", line)
    if not apns or not admin:
        process.kill()
        sys.exit(f"admin-latency: {binary} did not print its ready line: {line!r}")
    return process, int(apns.group(1)), int(admin.group(1))


def seed(apns_port, records):
    """Stores `records` pushes through one HTTP/2 connection (curl --next)."""
    if records == 0:
        return
    arguments = ["curl", "-sS"]
    for index in range(records):
        if index:
            arguments.append("--next")
        arguments += ["--http2", "--cacert", f"{ROOT}/certs/ca.pem", "-o", "/dev/null",
                      "-H", "apns-topic: com.example.app", "--data-binary", '{"aps":{"alert":"hi"}}',
                      f"https://127.0.0.1:{apns_port}/3/device/{index:064x}"]
    subprocess.run(arguments, check=True)


def cpu_seconds(pid):
    """utime + stime of `pid`, in seconds."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def round_trip(admin_port, route, requests, pid):
    """Mean latency (us) and server CPU per request (us) of `requests` sequential GETs of `route`."""
    connection = http.client.HTTPConnection("127.0.0.1", admin_port, timeout=10)
    connection.request("GET", route)
    connection.getresponse().read()
    cpu = cpu_seconds(pid)
    began = time.perf_counter()
    for _ in range(requests):
        connection.request("GET", route)
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            sys.exit(f"admin-latency: {route} answered {response.status}")
    elapsed = time.perf_counter() - began
    cpu = cpu_seconds(pid) - cpu
    connection.close()
    return elapsed / requests * 1e6, cpu / requests * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--records", type=int, default=1000)
    options = parser.parse_args()
    servers = [start(binary) for binary in options.binaries]
    try:
        for _, apns_port, _ in servers:
            seed(apns_port, options.records)
        results = {(b, r): ([], []) for b in range(len(servers)) for r in ROUTES}
        for _ in range(options.rounds):
            for index, (process, _, admin_port) in enumerate(servers):
                for route in ROUTES:
                    latency, cpu = round_trip(admin_port, route, options.requests, process.pid)
                    results[(index, route)][0].append(latency)
                    results[(index, route)][1].append(cpu)
        report = []
        for route in ROUTES:
            medians = []
            for index, binary in enumerate(options.binaries):
                latencies, cpus = results[(index, route)]
                medians.append(statistics.median(latencies))
                report.append({
                    "binary": binary, "route": route, "rounds": options.rounds, "requests": options.requests,
                    "latency_us_median": round(statistics.median(latencies), 1),
                    "latency_us_min": round(min(latencies), 1), "latency_us_max": round(max(latencies), 1),
                    "server_cpu_us_per_request_median": round(statistics.median(cpus), 1),
                })
            if len(medians) == 2:
                report.append({"route": route, "ratio_first_to_baseline": round(medians[0] / medians[1], 3)})
        for line in report:
            print(json.dumps(line))
    finally:
        for process, _, _ in servers:
            process.terminate()
            process.wait(timeout=10)


if __name__ == "__main__":
    main()
