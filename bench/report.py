#!/usr/bin/env python3
"""Parsing and the results table for bench/run.sh (standard library only).

  report.py run --server S --scenario X --rep N --h2load OUT [--log LOG] --cpu-ticks T --clk-tck HZ
                [--server-core-ticks BUSY STEAL] [--client-core-ticks BUSY STEAL] [--client-cpu "U S"]
                [--peak-rss-kib KIB] [--store-dropped N]
                [--warmup WARMUP_OUT] [--readers READERS_JSON --readers-cpu-ticks T]
                [--broadcast OUT --broadcast-cpu "U S"]
      one JSON line for one measured h2load run: req/s, request counts, status classes,
      latency percentiles from h2load's --log-file, server and h2load CPU seconds, server CPU
      seconds per 100k requests (apns-mock+broadcast: device pushes and broadcasts answered), other
      load on the two cores, peak RSS; bench/readers.py's JSON line and its CPU seconds over the
      measured run; the broadcast h2load's result and CPU seconds
  report.py table --results results.jsonl --meta meta.kv --out latest.md
      the Markdown report (the meta keys pager_<variant>_<round> hold bench/pager.py's JSON lines).
      Every median and (min–max) is over all rounds: a round whose runs had other load on the
      server's core is marked "disturbed", never left out (the median over the undisturbed rounds
      is given beside it, as a second figure, where it differs).
"""

import argparse
import json
import math
import re
import statistics
import sys

SCENARIOS = [
    ("throughput-100", "100 B payload, `-c 4 -m 64`"),
    ("throughput-4k", "4 KB (4,000 B) payload, `-c 4 -m 64`"),
    ("latency-100", "100 B payload, `-c 1 -m 1`"),
]
# apns-mock with every feature (readers attached), and its two variants: 10 fault rules that match
# nothing; broadcasts mixed in. The targets apply to all three.
MOCK_VARIANTS = ["apns-mock", "apns-mock+rules", "apns-mock+broadcast"]
SERVERS = MOCK_VARIANTS + ["baseline", "nghttpd", "h2o"]
# apns-mock against an earlier build of itself (BASELINE_BIN): its req/s at least this share of the
# baseline's in the same round (issue 11: lint on every record within 5 % of the push throughput).
BASELINE_TARGET = 0.95
# Issue 23. The headline: server CPU seconds per push at most this multiple of nghttpd's (per round).
CPU_TARGETS = {"throughput-100": 1.25, "throughput-4k": 1.25}
# Throughput targets: req/s at least this share of nghttpd's (per round).
THROUGHPUT_TARGETS = {"throughput-100": 0.8, "throughput-4k": 0.8}
P99_TARGET_FACTOR = 1.3  # latency-100: p99 at most 1.3 x nghttpd's
RULES_COST_TARGET = 0.05  # 10 fault rules that match nothing cost less than 5 % (req/s, CPU per push)
IDLE_RSS_TARGET_MIB = 32
READY_TARGET_MS = 50
RECORDS_RSS_TARGET_MIB = 512
QUERY_TARGET_MS = 20
# A run is disturbed when its server's core spent more than this share of the run on other work.
NOISE_SHARE = 0.1
# Paging while pushing: the pager may cost the 100 B throughput run less than this share of its req/s.
PAGING_COST_TARGET = 0.10
PAGING_VARIANTS = [
    ("unfiltered", "unfiltered"),
    ("topic", "`topic=com.example.app`"),
    ("lint", "`lint=error` (analyses every record it passes)"),
    ("waiters", "100 parked waiters + wake-up probe"),
]
# A waiter must be woken this soon after the push that satisfies it, even under full load.
WAKE_TARGET_MS = 10


# ----------------------------------------------------------------------------------------------
# run: one h2load result


def parse_h2load(text):
    out = {}
    m = re.search(r"^finished in ([\d.]+)(\w+), ([\d.]+) req/s", text, re.M)
    if m:
        value, unit = float(m.group(1)), m.group(2)
        out["elapsed_s"] = value / 1000 if unit == "ms" else value
        out["rps"] = float(m.group(3))
    m = re.search(
        r"^requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, "
        r"(\d+) errored, (\d+) timeout",
        text,
        re.M,
    )
    if m:
        keys = ["total", "started", "done", "succeeded", "failed", "errored", "timeout"]
        out.update({k: int(v) for k, v in zip(keys, m.groups())})
    m = re.search(r"^status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx", text, re.M)
    if m:
        out.update({k: int(v) for k, v in zip(["s2xx", "s3xx", "s4xx", "s5xx"], m.groups())})
    for key, pattern in [
        ("tls", r"^TLS Protocol: (\S+)"),
        ("cipher", r"^Cipher: (\S+)"),
        ("alpn", r"^Application protocol: (\S+)"),
    ]:
        m = re.search(pattern, text, re.M)
        if m:
            out[key] = m.group(1)
    return out


def percentile(sorted_values, p):
    """Nearest-rank percentile of an ascending list."""
    if not sorted_values:
        return None
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def parse_log(path):
    """h2load --log-file: start time (µs since epoch), status (-1: failed), µs to end of response.

    Besides the percentiles: the slowest request, and the longest time between two consecutive
    answers (end times), a stall of the server as the client saw it."""
    elapsed = []
    ends = []
    failed = 0
    with open(path) as f:
        for line in f:
            cols = line.split("\t")
            if len(cols) < 3:
                continue
            if cols[1].strip() == "-1":
                failed += 1
                continue
            elapsed.append(int(cols[2]))
            ends.append(int(cols[0]) + int(cols[2]))
    elapsed.sort()
    ends.sort()
    return {
        "logged": len(elapsed),
        "log_failed": failed,
        "p50_us": percentile(elapsed, 50),
        "p99_us": percentile(elapsed, 99),
        "max_us": elapsed[-1] if elapsed else None,
        "max_gap_us": max((b - a for a, b in zip(ends, ends[1:])), default=None),
    }


def cmd_run(args):
    with open(args.h2load, errors="replace") as f:
        text = f.read()
    row = {"server": args.server, "scenario": args.scenario, "rep": args.rep}
    row.update(parse_h2load(text))
    if args.log:
        try:
            row.update(parse_log(args.log))
        except OSError as error:
            row["log_error"] = str(error)
    row["cpu_s"] = args.cpu_ticks / args.clk_tck
    # Whether anything else ran on the two cores during the run: a core's busy time (/proc/stat:
    # user, nice, system, irq, softirq) beyond what the server, or h2load, used; and the time the
    # hypervisor took from the core (steal).
    client_cpu = sum(float(v) for v in args.client_cpu.split()) if args.client_cpu else None
    if client_cpu is not None:
        row["client_cpu_s"] = client_cpu
    if args.server_core_ticks:
        busy, steal = args.server_core_ticks
        row["server_core_other_s"] = max(0.0, busy / args.clk_tck - row["cpu_s"])
        row["server_core_steal_s"] = steal / args.clk_tck
    if args.client_core_ticks and client_cpu is not None:
        busy, steal = args.client_core_ticks
        row["client_core_other_s"] = max(0.0, busy / args.clk_tck - client_cpu)
        row["client_core_steal_s"] = steal / args.clk_tck
    if args.peak_rss_kib is not None:
        row["peak_rss_kib"] = args.peak_rss_kib
    if args.store_dropped is not None:
        try:
            row["store_dropped"] = int(args.store_dropped)
        except ValueError:
            row["store_dropped_error"] = args.store_dropped
    if args.warmup:
        try:
            with open(args.warmup, errors="replace") as f:
                row["warmup_done"] = parse_h2load(f.read()).get("done")
        except OSError as error:
            row["warmup_error"] = str(error)[:200]
    if args.readers:
        # bench/readers.py: parked waiters and the SSE reader; its CPU over the measured run, on h2load's core.
        try:
            with open(args.readers) as f:
                row["readers"] = json.loads(f.readline())
        except (OSError, ValueError) as error:
            row["readers"] = {"unreadable": str(error)[:200]}
        row["readers_cpu_s"] = (args.readers_cpu_ticks or 0) / args.clk_tck
    requests = row.get("done")
    if args.broadcast:
        try:
            with open(args.broadcast, errors="replace") as f:
                broadcast = parse_h2load(f.read())
        except OSError as error:
            broadcast = {"error": str(error)[:200]}
        lines = (args.broadcast_cpu or "").strip().splitlines()  # `time`'s "U S" is the last line
        cpu = floats(lines[-1]) if lines else []
        if len(cpu) == 2:
            broadcast["cpu_s"] = sum(cpu)
        row["broadcast"] = broadcast
        if requests is not None:
            requests += broadcast.get("done", 0)
    if requests:
        row["requests"] = requests
        row["cpu_s_per_100k"] = row["cpu_s"] / requests * 100_000
    print(json.dumps(row))


# ----------------------------------------------------------------------------------------------
# table: the report


def load_meta(path):
    meta = {}
    with open(path) as f:
        for line in f:
            key, _, value = line.rstrip("\n").partition("=")
            if key:
                meta[key] = value
    return meta


def floats(value):
    try:
        return [float(v) for v in value.split()]
    except (AttributeError, ValueError):
        return []


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt_int(v):
    return "—" if v is None else f"{v:,.0f}"


def fmt_spread(values, fmt=fmt_int):
    values = [v for v in values if v is not None]
    if not values:
        return "—"
    if len(values) == 1:
        return fmt(values[0])
    return f"{fmt(statistics.median(values))} ({fmt(min(values))}–{fmt(max(values))})"


def fmt_count(value):
    try:
        return f"{int(value):,}"
    except (TypeError, ValueError):
        return "?"


def use_of(rows, key):
    """Median share of the run's wall time a process was on a CPU, as a percentage of one core."""
    shares = [r[key] / r["elapsed_s"] for r in rows if r.get(key) is not None and r.get("elapsed_s")]
    return "—" if not shares else f"{statistics.median(shares) * 100:.0f}%"


def other_of(row, side):
    """Seconds a core spent on other work (busy beyond its process, plus steal) during a run."""
    return row.get(f"{side}_core_other_s", 0.0) + row.get(f"{side}_core_steal_s", 0.0)


def mark(ok):
    return "✓" if ok else "✗"


def mib(kib):
    return kib / 1024


def problems_of(row):
    """Why a measured run cannot be trusted (empty: it can)."""
    if "rps" not in row or "done" not in row or "s2xx" not in row:
        return ["h2load printed no result"]
    out = []
    for key in ("failed", "errored", "timeout"):
        if row.get(key):
            out.append(f"{row[key]:,} {key}")
    non2xx = row["done"] - row["s2xx"]
    if non2xx:
        out.append(f"{non2xx:,} of {row['done']:,} answers not 2xx "
                   f"({row.get('s4xx', 0):,} 4xx, {row.get('s5xx', 0):,} 5xx)")
    if row.get("done", 0) == 0:
        out.append("no request done")
    if row.get("log_failed"):
        out.append(f"{row['log_failed']:,} failed streams in the log")
    return out


def pager_key(server, variant):
    """The key of a pager's result in the meta data: the variant, prefixed for the baseline."""
    return variant if server == "apns-mock" else f"{server}_{variant}"


def write_paging(w, meta, all_paging_rows, pagers, noisy):
    """The paging table: push req/s alone and with a client paging through /v1/deliveries."""
    paging_rows = [r for r in all_paging_rows if r["server"] == "apns-mock"]
    alone = {r["rep"]: r for r in paging_rows if r["scenario"] == "paging-alone"}
    limit = meta.get("pager_limit", "?")
    pause = meta.get("pager_pause_ms", "?")
    w("### Paging while pushing: `GET /v1/deliveries` during the 100 B throughput run")
    w("")
    w(
        f"In each of the {meta.get('reps', '?')} round(s), on a freshly started apns-mock each time, the 100 B "
        f"`-c 4 -m 64` run (a {meta.get('warmup_n')}-request warm-up, then {meta.get('duration')} s) alone, and while "
        f"`bench/pager.py` pages through `GET /v1/deliveries?limit={limit}&order=asc` one page after the other "
        f"(`since` = the previous answer's `next`; {pause} ms between pages), unfiltered or with "
        f"`topic={meta.get('pager_topic', '?')}` (every push has that topic, so the store filters every record "
        "rather than paging by arithmetic), or with `lint=error` (the store analyses — lint and preview — every "
        "record it passes, and none of these has an error; each page of the unfiltered pager analyses its 100 "
        "records too). The pager starts after the warm-up, runs as long as the measured "
        f"run and shares h2load's core ({meta.get('client_cpu')}); the order of the runs rotates by round. "
        "Cost: 1 − (req/s with the pager) / (req/s alone), per round, then the median (min–max) over all rounds."
    )
    w("")
    w(
        "| pager | push req/s alone | push req/s with the pager | cost | target | push p99 µs alone / with "
        "| longest wait between two answers, ms, alone / with | server CPU use alone / with "
        "| pages/s | records/s | page p50 ms | page p99 ms | page max ms |"
    )
    w("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    notes = []
    for variant, label in PAGING_VARIANTS:
        rs = sorted((r for r in paging_rows if r["scenario"] == f"paging-{variant}"), key=lambda r: r["rep"])
        if not rs:
            continue
        pairs = [(alone[r["rep"]], r) for r in rs if r["rep"] in alone and alone[r["rep"]].get("rps") and r.get("rps")]
        # Every round counts, as in the load table; a pair with other load on the server's core is marked.
        used = pairs
        costs = [1 - b["rps"] / a["rps"] for a, b in used]
        cost = med(costs)
        ps = [pagers.get((variant, b["rep"]), {}) for _, b in used]
        pct = lambda v: f"{v * 100:.1f} %"  # noqa: E731
        ms = lambda v: f"{v:,.1f}"  # noqa: E731
        target = f"< {PAGING_COST_TARGET * 100:.0f} % " + ("?" if cost is None else mark(cost < PAGING_COST_TARGET))
        w(
            f"| {label} | {fmt_spread([a.get('rps') for a, _ in used])} | {fmt_spread([b.get('rps') for _, b in used])} | "
            f"{fmt_spread(costs, pct)} | {target} | "
            f"{fmt_spread([a.get('p99_us') for a, _ in used])} / {fmt_spread([b.get('p99_us') for _, b in used])} | "
            f"{fmt_spread([a['max_gap_us'] / 1000 for a, _ in used if a.get('max_gap_us') is not None], ms)} / "
            f"{fmt_spread([b['max_gap_us'] / 1000 for _, b in used if b.get('max_gap_us') is not None], ms)} | "
            f"{use_of([a for a, _ in used], 'cpu_s')} / {use_of([b for _, b in used], 'cpu_s')} | "
            f"{fmt_spread([p.get('pages_per_s') for p in ps], ms)} | {fmt_spread([p.get('records_per_s') for p in ps])} | "
            f"{fmt_spread([p.get('p50_ms') for p in ps], lambda v: f'{v:.2f}')} | "
            f"{fmt_spread([p.get('p99_ms') for p in ps], lambda v: f'{v:.2f}')} | "
            f"{fmt_spread([p.get('max_ms') for p in ps], lambda v: f'{v:.2f}')} |"
        )
        disturbed = [b["rep"] for a, b in pairs if a.get("disturbed") or b.get("disturbed")]
        if disturbed:
            notes.append(f"{variant}: round(s) {', '.join(map(str, disturbed))} disturbed (other load on the "
                         "server's core during one of the pair's runs); counted all the same")
        for (a, b), p in zip(used, ps):
            if not p:
                continue
            if variant == "waiters":
                p99 = p.get("wake_p99_ms")
                notes.append(
                    f"waiters round {b['rep']}: {p.get('waiters', '?')} waiters parked "
                    f"({p.get('parked_at_end', '?')} still parked at the end), {p.get('probes', 0)} probes: a wait on a "
                    f"fresh token answered p50 {p.get('wake_p50_ms')} ms, p99 {p99} ms, max {p.get('wake_max_ms')} ms "
                    f"after curl had the push's answer (target p99 < {WAKE_TARGET_MS} ms "
                    f"{'?' if p99 is None else mark(p99 < WAKE_TARGET_MS)}); {p.get('errors', '?')} errors"
                )
                continue
            span = b.get("elapsed_s") or p.get("duration_s") or 1
            client_alone = (a.get("client_cpu_s") or 0) / (a.get("elapsed_s") or span)
            client_with = ((b.get("client_cpu_s") or 0) + (p.get("cpu_s") or 0)) / span
            backlog = p.get("total_end")
            notes.append(
                f"{variant} round {b['rep']}: {p.get('pages', 0):,} pages, {p.get('records', 0):,} records, "
                f"{p.get('errors', '?')} errors; {p.get('connections', '?')} connection(s), keep-alive "
                f"{'yes' if p.get('keepalive') else 'no'}; caught up with the newest record on "
                f"{p.get('caught_up_pages', 0):,} page(s), {fmt_count(backlog)} matching records still ahead of "
                f"the cursor at the end; pager CPU {p.get('cpu_s', 0):.2f} s; h2load's core busy with h2load "
                f"{client_alone * 100:.0f}% alone, h2load + pager {client_with * 100:.0f}% with it"
            )
    w("")
    w(
        "Longest wait between two answers: the longest time in the measured run during which h2load received no "
        "answer at all (end times from its `--log-file`), a stall of the push path as the client saw it. "
        "Server CPU use: apns-mock's CPU time over the run, as a share of its one core. Pager figures "
        "(pages/s, records/s, page latency from sending the request to having read the whole answer) are "
        "the median over the rounds of each round's figure."
    )
    w("")
    if notes:
        w("<details><summary>Pager runs</summary>")
        w("")
        for note in notes:
            w(f"- {note}")
        w("")
        w("</details>")
        w("")
    if noisy:
        w(
            "Noise in the paging runs (more than 10% of a core on other work; the pager's own CPU time on "
            "h2load's core is not counted): " + "; ".join(noisy) + "."
        )
        w("")


def write_baseline(w, meta, runs, paging_rows, pagers):
    """apns-mock against an earlier build of itself, round by round (BASELINE_BIN)."""
    label = meta.get("baseline_label", "?")
    w(f"### apns-mock against the baseline ({label})")
    w("")
    w(
        "Both builds are measured in every round (the servers' order rotates by round), each on a freshly "
        "started process with the readers attached, so the two runs of a pair are at most a minute apart. Ratio: apns-mock's figure over the "
        "baseline's in the same round; the median (min–max) over the rounds. This machine is noisy: a pair's "
        "req/s can differ by several per cent with no code change; CPU s per 100k requests and the "
        "instruction counts of `make bench-instructions` repeat better."
    )
    w("")
    w("| run | req/s apns-mock | req/s baseline | req/s ratio | target | server CPU s / 100k req, apns-mock / baseline | CPU ratio |")
    w("|---|---:|---:|---:|---|---:|---:|")

    def row(label_text, ours, theirs, target_applies):
        pairs = [(a, b) for a in ours for b in theirs if a["rep"] == b["rep"] and a.get("rps") and b.get("rps")]
        ratios = [a["rps"] / b["rps"] for a, b in pairs]
        cpu = [
            a["cpu_s_per_100k"] / b["cpu_s_per_100k"]
            for a, b in pairs
            if a.get("cpu_s_per_100k") and b.get("cpu_s_per_100k")
        ]
        ratio = med(ratios)
        target = ""
        if target_applies:
            target = f"≥ {BASELINE_TARGET} × baseline " + ("?" if ratio is None else mark(ratio >= BASELINE_TARGET))
        two = lambda v: f"{v:.3f}"  # noqa: E731
        w(
            f"| {label_text} | {fmt_spread([a['rps'] for a, _ in pairs])} | {fmt_spread([b['rps'] for _, b in pairs])} | "
            f"{fmt_spread(ratios, two)} | {target} | "
            f"{fmt_spread([a.get('cpu_s_per_100k') for a, _ in pairs], lambda v: f'{v:.2f}')} / "
            f"{fmt_spread([b.get('cpu_s_per_100k') for _, b in pairs], lambda v: f'{v:.2f}')} | "
            f"{fmt_spread(cpu, two)} |"
        )

    for scenario, text in SCENARIOS:
        row(text, runs("apns-mock", scenario), runs("baseline", scenario), scenario in THROUGHPUT_TARGETS)

    def paging(server, variant):
        return [r for r in paging_rows if r["server"] == server and r["scenario"] == f"paging-{variant}"]

    if paging(server="baseline", variant="alone"):
        row("100 B `-c 4 -m 64`, paging runs, alone", paging("apns-mock", "alone"), paging("baseline", "alone"), True)
        row(
            "… with the unfiltered pager (as fast as each build answers it: compare the records/s below)",
            paging("apns-mock", "unfiltered"), paging("baseline", "unfiltered"), True,
        )
        row(
            "… apns-mock with the `lint=error` pager, the baseline alone",
            paging("apns-mock", "lint"), paging("baseline", "alone"), True,
        )
        w("")
        reads = []
        for server in ("apns-mock", "baseline"):
            ps = [pagers.get((pager_key(server, "unfiltered"), r["rep"]), {}) for r in paging(server, "unfiltered")]
            reads.append(
                f"{server} {fmt_spread([p.get('records_per_s') for p in ps])} records/s "
                f"(page p50 {fmt_spread([p.get('p50_ms') for p in ps], lambda v: f'{v:.1f}')} ms)"
            )
        w("The unfiltered pager read " + ", ".join(reads) + ".")
    w("")


def client_other_of(row, pager=None):
    """Other load on h2load's core besides h2load and the companions that share it on purpose: the
    readers (bench/readers.py), the broadcast h2load, a pager (bench/pager.py, bench/waiters.py)."""
    companions = (row.get("readers_cpu_s") or 0.0) + ((row.get("broadcast") or {}).get("cpu_s") or 0.0)
    if pager:
        companions += pager.get("cpu_s") or 0.0
    return max(0.0, other_of(row, "client") - companions)


def pct(v):
    return f"{v * 100:.1f} %"


def two(v):
    return f"{v:.2f}"


def paired(ours, theirs, key, combine):
    """combine(our figure, their figure) for every round both have (runs of one scenario)."""
    by_rep = {r["rep"]: r for r in theirs}
    out = []
    for r in ours:
        other = by_rep.get(r["rep"], {})
        if r.get(key) and other.get(key):
            out.append(combine(r[key], other[key]))
    return out


def figures(rs, ng):
    """The load table's figures for the runs rs of one server and scenario against nghttpd's runs ng."""
    return {
        "rps": [r.get("rps") for r in rs],
        "cpu": [r.get("cpu_s_per_100k") for r in rs],
        "ratios": paired(rs, ng, "rps", lambda a, b: a / b),
        "cpu_ratios": paired(rs, ng, "cpu_s_per_100k", lambda a, b: a / b),
        "p99_ratios": paired(rs, ng, "p99_us", lambda a, b: a / b),
    }


def readers_problems(r, waiters):
    """Why the readers of a run were not as they should be (empty: they were)."""
    d = r.get("readers")
    if d is None:
        return ["no readers attached (bench/readers.py gave no result)"]
    if "unreadable" in d:
        return [f"bench/readers.py printed no JSON line ({d['unreadable']})"]
    out = []
    if not d.get("ready"):
        out.append(f"the readers were not in place before the load ({d.get('first_error')})")
    if d.get("sse_status") != 200:
        out.append(f"GET /v1/events answered {d.get('sse_status')}")
    parked = d.get("parked_at_end")
    if parked is None or parked < waiters:
        out.append(f"{parked} of {waiters} waiters still parked at the end "
                   f"({d.get('waiters_answered', '?')} answered, {d.get('waiters_closed', '?')} closed)")
    if d.get("sse_ended"):
        after = d.get("sse_ended_after_s")
        out.append("the SSE stream ended during the run"
                   + (f", {after:.1f} s after the readers started" if after is not None else ""))
    if d.get("errors") and not out:
        out.append(f"{d['errors']} reader error(s) ({d.get('first_error')})")
    return out


def cmd_table(args):
    meta = load_meta(args.meta)
    rows = []
    with open(args.results) as f:
        for line in f:
            if line.strip():
                rows.append(json.loads(line))
    load_rows = [r for r in rows if r["scenario"] not in ("records", "at-capacity")
                 and not r["scenario"].startswith("paging-")]
    record_rows = [r for r in rows if r["scenario"] == "records"]
    capacity_rows = [r for r in rows if r["scenario"] == "at-capacity"]
    paging_rows = [r for r in rows if r["scenario"].startswith("paging-")]
    pagers = {}  # (variant, round) -> bench/pager.py's JSON line
    for key, value in meta.items():
        m = re.fullmatch(r"pager_(\w+)_(\d+)", key)
        if m:
            try:
                pagers[(m.group(1), int(m.group(2)))] = json.loads(value)
            except ValueError:
                pagers[(m.group(1), int(m.group(2)))] = {"unreadable": value[:200]}
    waiters = int(meta.get("readers_waiters", "100") or 100)

    # Disturbed: the server's core spent more than NOISE_SHARE of the run on other work (other
    # processes, interrupts, hypervisor steal: /proc/stat). Noisy: that, or h2load's core did, besides
    # h2load and its companions. A round (scenario, rep) is disturbed when any of its runs is.
    noisy = []
    for r in load_rows:
        span = r.get("elapsed_s") or float(meta.get("duration", "10") or 10)
        server_other, client_other = other_of(r, "server"), client_other_of(r)
        r["disturbed"] = server_other > NOISE_SHARE * span
        r["noisy"] = r["disturbed"] or client_other > NOISE_SHARE * span
        if r["noisy"]:
            noisy.append(
                f"{r['server']} {r['scenario']} rep {r['rep']} ({server_other:.1f} s on the server's core"
                f"{' — disturbed' if r['disturbed'] else ''}, {client_other:.1f} s on h2load's besides h2load "
                "and its companions)"
            )
    disturbed_rounds = {(r["scenario"], r["rep"]) for r in load_rows if r["disturbed"]}
    # Paging runs: the pager shares h2load's core on purpose, so its own CPU time is not noise there.
    paging_noisy = []
    for r in paging_rows:
        span = r.get("elapsed_s") or float(meta.get("duration", "10") or 10)
        pager = pagers.get((pager_key(r["server"], r["scenario"][len("paging-"):]), r["rep"]), {})
        server_other = other_of(r, "server")
        client_other = client_other_of(r, pager)
        r["disturbed"] = server_other > NOISE_SHARE * span
        r["noisy"] = r["disturbed"] or client_other > NOISE_SHARE * span
        if r["noisy"]:
            paging_noisy.append(
                f"{r['server']} {r['scenario']} rep {r['rep']} ({server_other:.1f} s on the server's core"
                f"{' — disturbed' if r['disturbed'] else ''}, {client_other:.1f} s on h2load's besides h2load "
                "and the pager)"
            )

    def runs(server, scenario, undisturbed_only=False):
        """Every round's run (the medians are over all rounds), or the undisturbed rounds' only."""
        return [r for r in load_rows if r["server"] == server and r["scenario"] == scenario
                and not (undisturbed_only and (scenario, r["rep"]) in disturbed_rounds)]

    warnings = []
    for r in load_rows + record_rows + capacity_rows + paging_rows:
        for p in problems_of(r):
            warnings.append(f"{r['server']} {r['scenario']} rep {r['rep']}: {p}")
    for r in load_rows:
        if r["server"] in MOCK_VARIANTS or r["server"] == "baseline":
            for p in readers_problems(r, waiters):
                warnings.append(f"{r['server']} {r['scenario']} rep {r['rep']}: {p}")
        if r["server"] == "apns-mock+broadcast":
            b = r.get("broadcast")
            if not b or "done" not in b or "s2xx" not in b:
                warnings.append(f"{r['server']} {r['scenario']} rep {r['rep']}: the broadcast h2load printed no result")
            else:
                bad = [f"{b[k]:,} {k}" for k in ("failed", "errored", "timeout") if b.get(k)]
                if b["done"] - b["s2xx"]:
                    bad.append(f"{b['done'] - b['s2xx']:,} of {b['done']:,} broadcasts not answered 2xx "
                               f"({b.get('s4xx', 0):,} 4xx, {b.get('s5xx', 0):,} 5xx)")
                if not b["done"]:
                    bad.append("no broadcast answered")
                for p in bad:
                    warnings.append(f"{r['server']} {r['scenario']} rep {r['rep']} broadcasts: {p}")
    for r in paging_rows:
        variant = r["scenario"][len("paging-"):]
        if variant == "alone":
            continue
        pager = pagers.get((pager_key(r["server"], variant), r["rep"]))
        if pager is None or "unreadable" in pager:
            warnings.append(f"pager {r['server']} {variant} rep {r['rep']}: no result from bench/pager.py")
        elif variant == "waiters":
            if pager.get("errors") or not pager.get("probes"):
                warnings.append(
                    f"waiters {r['server']} rep {r['rep']}: {pager.get('probes', 0)} probes, "
                    f"{pager.get('errors', '?')} errors ({pager.get('first_error')})"
                )
        elif pager.get("errors") or not pager.get("pages"):
            warnings.append(
                f"pager {variant} rep {r['rep']}: {pager.get('pages', 0):,} pages, {pager.get('errors', '?')} errors "
                f"({pager.get('first_error')})"
            )
    for server in SERVERS:
        probe = meta.get(f"{server}_probe" if server != "apns-mock" else "mock_probe")
        if probe is not None and probe != "200":
            warnings.append(f"{server}: the curl probe push was answered {probe}, not 200")
    if meta.get("broadcast_probe", "200") != "200":
        warnings.append(f"apns-mock+broadcast: the curl probe broadcast was answered {meta['broadcast_probe']}, not 200")
    if meta.get("mock_push2_status", "200") != "200" or meta.get("mock_query_found", "1") != "1":
        warnings.append(
            f"apns-mock token query: the push with the distinct token was answered "
            f"{meta.get('mock_push2_status', '?')}, and the query found it {meta.get('mock_query_found', '?')} time(s)"
        )
    unavailable = {}
    if meta.get("h2o_unavailable"):
        unavailable["h2o"] = meta["h2o_unavailable"]

    reps = meta.get("reps", "?")
    duration = meta.get("duration", "?")
    quick = meta.get("quick") == "1"
    mem_gib = int(meta.get("mem_total_kib", "0")) / 1024 / 1024
    lines = []
    w = lines.append
    w(f"# apns-mock benchmark — {meta.get('date', '?')}")
    w("")
    w(
        f"One run of `{'BENCH_QUICK=1 ' if quick else ''}make bench` on this machine: {meta.get('nproc', '?')} × "
        f"{meta.get('cpu_model', '?')}, {mem_gib:.1f} GiB, Linux {meta.get('kernel', '?')}; "
        f"git {meta.get('git', '?')}; load average (1/5/15 min) {meta.get('loadavg_start', '?')} at the start, "
        f"{meta.get('loadavg_end', '?')} at the end. apns-mock binary: `{meta.get('bin', '?')}`."
    )
    w(
        f"Server pinned to core {meta.get('server_cpu')}, h2load to core {meta.get('client_cpu')} (`taskset`). "
        f"{reps} round(s); in each, every scenario on every server in turn (the servers' order rotates by round): "
        f"a {meta.get('warmup_n')}-request warm-up "
        f"(a quarter of it at `-c 1 -m 1`) then a {duration}-second measured run (`h2load -D {duration}`); "
        "figures are the median, with (min–max), over **all** the rounds: a disturbed round (other load on the "
        "server's core) is marked, never left out."
    )
    w(
        "apns-mock runs with `--auth-stream-limit off` (the one-stream-before-authentication rule is **off**) "
        "and its default record capacity (100,000): every push is checked against the JWT (verified-token cache) "
        "and recorded; the store fills within the first second and then drops its oldest record for every push "
        "(the runs below say how many). In the load runs every apns-mock (its variants, and the baseline) has "
        f"`bench/readers.py` attached from before the warm-up to the end of the measured run: {waiters} parked "
        "waiters (`GET /v1/deliveries/wait?count=1&timeout=300&token=<a token nobody pushes to>`, each on its own "
        "connection) and one unfiltered Server-Sent-Events reader on `GET /v1/events` (one `delivery` event per "
        "record, as the dashboard reads them), pinned to h2load's core. No fault rule, except "
        f"`apns-mock+rules`: {meta.get('fault_rules', '10')} rules that match nothing of the load. "
        f"`apns-mock+broadcast`: a second h2load sends broadcasts to a channel (`-c 1 -m 1 --rps "
        f"{meta.get('broadcast_rps', '1000')}`) beside the device pushes; its CPU per request counts both. "
        "The memory and query figures under \"apns-mock alone\" use `--record-capacity` (no readers)."
    )
    w(
        f"Versions: {meta.get('swift', '?')}; {meta.get('h2load', '?')}; {meta.get('h2o', '?')}; "
        f"{meta.get('openssl', '?')}."
    )
    w("")
    load_rounds = sorted({(r["scenario"], r["rep"]) for r in load_rows})
    if disturbed_rounds:
        w(
            f"**Disturbed: {len(disturbed_rounds)} of {len(load_rounds)} load rounds (scenario × round) had other "
            f"load on the server's core (more than {NOISE_SHARE:.0%} of a run; list at the end). They are counted in "
            "every median and min–max, and marked; the median over the undisturbed rounds follows the load table "
            "where it differs.**"
        )
        w("")
    if warnings:
        w("## ⚠️ WARNING: some requests failed or were not answered 200 — the numbers below are suspect")
        w("")
        for item in warnings:
            w(f"- **{item}**")
        w("")

    # --- load table
    tls = []
    for server in SERVERS:
        seen = sorted({f"{r.get('tls', '?')} {r.get('cipher', '?')}, ALPN {r.get('alpn', '?')}" for r in load_rows
                       if r["server"] == server})
        if seen:
            tls.append(f"{server} {' / '.join(seen)}")
    w("## Load: `POST /3/device/<token>`, h2load, HTTP/2 over TLS")
    w("")
    w(f"TLS as negotiated: {'; '.join(tls) or '?'}.")
    w("")
    w(
        "| scenario | server | server CPU s / 100k req | CPU × nghttpd | target | req/s | × nghttpd | target "
        "| p50 µs | p99 µs | CPU use: server / h2load | peak RSS MiB |"
    )
    w("|---|---|---:|---:|---|---:|---:|---|---:|---:|---:|---:|")
    baseline_measured = any(r["server"] == "baseline" for r in load_rows)
    secondary = []
    for scenario, label in SCENARIOS:
        ng = runs("nghttpd", scenario)
        for server in SERVERS:
            if server == "baseline" and not baseline_measured:
                continue
            if server in unavailable:
                w(f"| {label} | {server} | unavailable | | | | | | | | | |")
                continue
            rs = runs(server, scenario)
            if not rs:
                w(f"| {label} | {server} | not measured | | | | | | | | | |")
                continue
            # Ratios per round (the runs compared are minutes apart at most), then their median.
            f = figures(rs, ng)
            cpu_ratio, ratio, p99_ratio = med(f["cpu_ratios"]), med(f["ratios"]), med(f["p99_ratios"])
            targeted = server in MOCK_VARIANTS
            cpu_target = target = ""
            if targeted and scenario in CPU_TARGETS:
                t = CPU_TARGETS[scenario]
                cpu_target = f"≤ {t} × nghttpd " + ("?" if cpu_ratio is None else mark(cpu_ratio <= t))
            if targeted and scenario in THROUGHPUT_TARGETS:
                t = THROUGHPUT_TARGETS[scenario]
                target = f"≥ {t} × nghttpd " + ("?" if ratio is None else mark(ratio >= t))
            elif targeted and scenario == "latency-100":
                if p99_ratio is not None:
                    target = (
                        f"p99 ≤ {P99_TARGET_FACTOR} × nghttpd's: {fmt_spread(f['p99_ratios'], two)} "
                        f"{mark(p99_ratio <= P99_TARGET_FACTOR)}"
                    )
                else:
                    target = f"p99 ≤ {P99_TARGET_FACTOR} × nghttpd's ?"
            is_ng = server == "nghttpd"
            name = f"apns-mock at {meta.get('baseline_label', '?')}" if server == "baseline" else server
            w(
                f"| {label} | {name} | {fmt_spread(f['cpu'], two)} | "
                f"{'1' if is_ng else fmt_spread(f['cpu_ratios'], two)} | {cpu_target} | "
                f"{fmt_spread(f['rps'])} | {'1' if is_ng else fmt_spread(f['ratios'], two)} | {target} | "
                f"{fmt_spread([r.get('p50_us') for r in rs])} | {fmt_spread([r.get('p99_us') for r in rs])} | "
                f"{use_of(rs, 'cpu_s')} / {use_of(rs, 'client_cpu_s')} | "
                f"{fmt_spread([mib(r['peak_rss_kib']) for r in rs if 'peak_rss_kib' in r], lambda v: f'{v:,.1f}')} |"
            )
            # The second figure: the same medians over the undisturbed rounds, where they differ.
            if any((scenario, r["rep"]) in disturbed_rounds for r in rs):
                us = runs(server, scenario, undisturbed_only=True)
                if not us:
                    note = f"{scenario}: every round disturbed, no undisturbed median"
                    if note not in secondary:
                        secondary.append(note)
                    continue
                u = figures(us, runs("nghttpd", scenario, undisturbed_only=True))
                parts = [f"CPU s / 100k req {fmt_spread(u['cpu'], two)}"]
                if not is_ng:
                    parts.append(f"CPU × nghttpd {fmt_spread(u['cpu_ratios'], two)}")
                parts.append(f"req/s {fmt_spread(u['rps'])}")
                if not is_ng:
                    parts.append(f"× nghttpd {fmt_spread(u['ratios'], two)}")
                if scenario == "latency-100" and not is_ng:
                    parts.append(f"p99 × nghttpd's {fmt_spread(u['p99_ratios'], two)}")
                secondary.append(f"{scenario} {server} ({len(us)} of {len(rs)} rounds): " + ", ".join(parts))
    w("")
    counts = []
    for scenario, _ in SCENARIOS:
        rounds = sorted({rep for s, rep in load_rounds if s == scenario})
        if not rounds:
            continue
        bad = sorted(rep for s, rep in disturbed_rounds if s == scenario)
        counts.append(f"{scenario} {len(bad)} of {len(rounds)}" + (f" (round {', '.join(map(str, bad))})" if bad else ""))
    w(
        "Disturbed rounds (other load on the server's core during one of the round's runs; counted in the "
        "medians): " + ("; ".join(counts) or "none") + "."
    )
    if secondary:
        w("")
        w("Median (min–max) over the undisturbed rounds only, a second figure where it differs:")
        w("")
        for item in secondary:
            w(f"- {item}")
    w("")
    w(
        "CPU × nghttpd, the headline figure (issue 23: the one this noisy 2-core machine disturbs least): this "
        "server's CPU seconds per 100k requests over nghttpd's in the same round, median (min–max) over the rounds; "
        "× nghttpd compares req/s, and the p99 target p99, the same way. For apns-mock+broadcast, CPU per request is "
        "the server's CPU over device pushes and broadcasts answered; its req/s are the device pushes'. "
        "The targets apply to apns-mock, apns-mock+rules and apns-mock+broadcast. "
        "Every run is on a freshly started server. Peak RSS is the server's VmHWM at the end of the run "
        "(summed over its processes: h2o keeps its private key in a second one). apns-mock's includes "
        "the pushes it recorded in the run, payloads included, and what the readers' connections hold."
    )
    for server, reason in unavailable.items():
        w("")
        w(f"**{server} unavailable**: {reason}.")
    w("")
    write_rules(w, meta, runs)
    write_broadcast(w, meta, runs)
    write_readers(w, meta, load_rows, waiters)
    if baseline_measured:
        write_baseline(w, meta, runs, paging_rows, pagers)

    # --- apns-mock alone
    w("## apns-mock alone")
    w("")
    w("| measure | value | target |")
    w("|---|---:|---|")
    ready = floats(meta.get("mock_ready_ms"))
    if ready:
        m = statistics.median(ready)
        w(
            f"| process start → ready line, median of {len(ready)} starts | {fmt_spread(ready, lambda v: f'{v:.0f}')} ms | "
            f"≤ {READY_TARGET_MS} ms {mark(m <= READY_TARGET_MS)} |"
        )
    idle = [mib(v) for v in floats(meta.get("mock_idle_rss_kib"))]
    if idle:
        m = statistics.median(idle)
        w(
            f"| idle RSS (VmRSS) right after the ready line, median of {len(idle)} starts | "
            f"{fmt_spread(idle, lambda v: f'{v:.1f}')} MiB | ≤ {IDLE_RSS_TARGET_MIB} MiB {mark(m <= IDLE_RSS_TARGET_MIB)} |"
        )
    records = int(meta.get("records", "0") or 0)
    rss_records = meta.get("mock_rss_after_records_kib")
    if rss_records:
        v = mib(int(rss_records))
        w(
            f"| RSS (VmRSS) after recording {records:,} pushes (100 B, `-c 4 -m 64`) | {v:,.1f} MiB | "
            f"≤ {RECORDS_RSS_TARGET_MIB} MiB (for 1,000,000) {mark(v <= RECORDS_RSS_TARGET_MIB)} |"
        )
    query = [v * 1000 for v in floats(meta.get("mock_query_s"))]
    if query:
        m = statistics.median(query)
        w(
            f"| `GET /v1/deliveries?token=<token>&limit=1` with {records:,} records stored, "
            f"median of {len(query)} (curl `time_total`) | {fmt_spread(query, lambda v: f'{v:.2f}')} ms | "
            f"≤ {QUERY_TARGET_MS} ms {mark(m <= QUERY_TARGET_MS)} |"
        )
    w("")
    for r in record_rows:
        w(
            f"Recording run: {fmt_int(r.get('done'))} requests done, {fmt_int(r.get('s2xx'))} 2xx, "
            f"{fmt_int(r.get('rps'))} req/s; the store then held {fmt_count(meta.get('mock_stored_total'))} records "
            f"(`total` of an unfiltered query). The queried token had one push, made after them "
            f"(answered {meta.get('mock_push2_status', '?')}); the query returned it: "
            f"{'yes' if meta.get('mock_query_found') == '1' else '**no**'}."
        )
    for r in capacity_rows:
        fresh = med([x.get("rps") for x in load_rows if x["server"] == "apns-mock" and x["scenario"] == "throughput-100"])
        share = (f" ({r['rps'] / fresh:.2f} × apns-mock's 100 B throughput run on an empty store, which had the "
                 "readers attached)") if fresh and r.get("rps") else ""
        w("")
        w(
            f"At capacity: with the store full ({records:,} records of one device token), the 100 B `-c 4 -m 64` run "
            f"(no warm-up, no readers, {meta.get('capacity_duration', '?')} s), where every push also drops the oldest "
            f"record, made {fmt_int(r.get('rps'))} req/s{share}, p99 {fmt_int(r.get('p99_us'))} µs, "
            f"{r.get('cpu_s_per_100k', 0):.2f} CPU s / 100k req; dropped records after it: "
            f"{fmt_count(r.get('store_dropped'))}. No target."
        )
    w("")
    if paging_rows:
        write_paging(w, meta, paging_rows, pagers, paging_noisy)

    # --- every run
    w("<details><summary>Every measured run</summary>")
    w("")
    w(
        "| server | scenario | rep | disturbed | req/s | done | 2xx | failed/errored/timeout | p50 µs | p99 µs "
        "| server CPU s | server CPU s / 100k req | h2load CPU s | other load on server / h2load core, s "
        "| readers: parked / SSE events / CPU s | broadcasts: done / 2xx / CPU s | peak RSS MiB | records dropped |"
    )
    w("|---|---|---:|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in load_rows + capacity_rows + paging_rows:
        if r.get("disturbed"):
            disturbed = "**yes**"
        elif (r["scenario"], r["rep"]) in disturbed_rounds:
            disturbed = "round"
        else:
            disturbed = ""
        pager = None
        if r["scenario"].startswith("paging-"):
            pager = pagers.get((pager_key(r["server"], r["scenario"][len("paging-"):]), r["rep"]), {})
        d, b = r.get("readers"), r.get("broadcast")
        readers = "" if d is None else (
            f"{fmt_count(d.get('parked_at_end'))} / {fmt_count(d.get('sse_events'))} / {r.get('readers_cpu_s', 0):.2f}")
        broadcasts = "" if b is None else (
            f"{fmt_count(b.get('done'))} / {fmt_count(b.get('s2xx'))} / {b.get('cpu_s', 0):.2f}")
        w(
            f"| {r['server']} | {r['scenario']} | {r['rep']} | {disturbed} | {fmt_int(r.get('rps'))} | "
            f"{fmt_int(r.get('done'))} | "
            f"{fmt_int(r.get('s2xx'))} | {r.get('failed', '?')}/{r.get('errored', '?')}/{r.get('timeout', '?')} | "
            f"{fmt_int(r.get('p50_us'))} | {fmt_int(r.get('p99_us'))} | {r.get('cpu_s', 0):.2f} | "
            f"{r.get('cpu_s_per_100k', 0):.2f} | "
            f"{r.get('client_cpu_s', 0):.2f} | {other_of(r, 'server'):.2f} / {client_other_of(r, pager):.2f} | "
            f"{readers} | {broadcasts} | "
            f"{mib(r['peak_rss_kib']) if 'peak_rss_kib' in r else 0:,.1f} | "
            f"{fmt_count(r.get('store_dropped')) if 'store_dropped' in r or 'store_dropped_error' in r else ''} |"
        )
    w("")
    w(
        "Disturbed: **yes**, this run's server core spent more than "
        f"{NOISE_SHARE:.0%} of the run on other work; round, another run of its round did. Other load on h2load's "
        "core leaves out h2load and what shares that core on purpose (the readers, the broadcast h2load, a pager)."
    )
    w("")
    w("</details>")
    w("")
    if noisy:
        w(
            f"Noise: during {len(noisy)} measured load run(s) the server's core spent more than {NOISE_SHARE:.0%} of "
            "the run on something other than the server (disturbed), or h2load's core on something other than h2load "
            "and its companions (other processes, interrupts, hypervisor steal): "
            + "; ".join(noisy)
            + ". Those runs may read low; every one is counted."
        )
        w("")
    if not warnings:
        w("Checks: every measured h2load run reported 0 failed, 0 errored, 0 timed-out requests, "
          "every answer was 2xx (apns-mock: 200 for every push and broadcast), and the readers stayed in "
          f"place ({waiters} waiters parked to the end, the SSE stream open).")
    else:
        w(f"⚠️ **WARNING: {len(warnings)} check(s) failed — see the list at the top.**")
    text = "\n".join(lines) + "\n"
    with open(args.out, "w") as f:
        f.write(text)
    if warnings:
        for item in warnings:
            print(f"WARNING: {item}", file=sys.stderr)


def write_rules(w, meta, runs):
    """Rule-matching cost: apns-mock+rules against apns-mock, round by round."""
    if not any(runs("apns-mock+rules", s) for s, _ in SCENARIOS):
        return
    w(f"### Fault-rule matching: apns-mock+rules ({meta.get('fault_rules', '10')} rules that match nothing) "
      "against apns-mock")
    w("")
    w(
        "Both with the readers, in the same rounds. Cost: 1 − (req/s with the rules) / (req/s apns-mock), and "
        "(CPU s per 100k req with the rules) / (apns-mock's) − 1, per round, then the median (min–max) over all rounds."
    )
    w("")
    w("| scenario | req/s apns-mock | req/s +rules | req/s cost | target | CPU s / 100k req apns-mock / +rules "
      "| CPU cost | target |")
    w("|---|---:|---:|---:|---|---:|---:|---|")
    for scenario, label in SCENARIOS:
        ours, theirs = runs("apns-mock+rules", scenario), runs("apns-mock", scenario)
        if not ours:
            continue
        rps_cost = paired(ours, theirs, "rps", lambda a, b: 1 - a / b)
        cpu_cost = paired(ours, theirs, "cpu_s_per_100k", lambda a, b: a / b - 1)

        def target(costs):
            m = med(costs)
            return f"< {RULES_COST_TARGET:.0%} " + ("?" if m is None else mark(m < RULES_COST_TARGET))

        w(
            f"| {label} | {fmt_spread([r.get('rps') for r in theirs])} | {fmt_spread([r.get('rps') for r in ours])} | "
            f"{fmt_spread(rps_cost, pct)} | {target(rps_cost)} | "
            f"{fmt_spread([r.get('cpu_s_per_100k') for r in theirs], two)} / "
            f"{fmt_spread([r.get('cpu_s_per_100k') for r in ours], two)} | {fmt_spread(cpu_cost, pct)} | "
            f"{target(cpu_cost)} |"
        )
    w("")


def write_broadcast(w, meta, runs):
    """apns-mock+broadcast: the broadcasts sent beside the device pushes."""
    if not any(runs("apns-mock+broadcast", s) for s, _ in SCENARIOS):
        return
    w("### Broadcast traffic mixed in: apns-mock+broadcast")
    w("")
    w(
        "Beside the measured run, a second h2load on h2load's core sends `POST /4/broadcasts/apps/com.example.app` "
        f"to a channel created before the warm-up (`-c 1 -m 1 --rps {meta.get('broadcast_rps', '1000')}`, as long as "
        "the run; `apns-push-type: LiveActivity`, `apns-priority: 10`, `apns-expiration: 0`). Median (min–max) over "
        "the rounds; status classes summed over them. CPU per request: the server's CPU over device pushes and "
        "broadcasts answered. CPU × apns-mock: that over apns-mock's CPU per push in the same round."
    )
    w("")
    w("| scenario | device req/s | broadcasts answered | broadcasts/s | broadcast status 2xx / 4xx / 5xx "
      "| CPU s / 100k req | CPU × apns-mock |")
    w("|---|---:|---:|---:|---|---:|---:|")
    for scenario, label in SCENARIOS:
        rs = runs("apns-mock+broadcast", scenario)
        if not rs:
            continue
        bs = [r.get("broadcast") or {} for r in rs]
        cpu_ratio = paired(rs, runs("apns-mock", scenario), "cpu_s_per_100k", lambda a, b: a / b)
        w(
            f"| {label} | {fmt_spread([r.get('rps') for r in rs])} | {fmt_spread([b.get('done') for b in bs])} | "
            f"{fmt_spread([b.get('rps') for b in bs])} | "
            f"{sum(b.get('s2xx', 0) for b in bs):,} / {sum(b.get('s4xx', 0) for b in bs):,} / "
            f"{sum(b.get('s5xx', 0) for b in bs):,} | "
            f"{fmt_spread([r.get('cpu_s_per_100k') for r in rs], two)} | {fmt_spread(cpu_ratio, two)} |"
        )
    w("")
    w(f"The probe broadcast (curl, once per bench) was answered {meta.get('broadcast_probe', '?')}.")
    w("")


def write_readers(w, meta, load_rows, waiters):
    """What the readers saw, server by server and scenario by scenario."""
    rows = [r for r in load_rows if r.get("readers") is not None]
    if not rows:
        return
    w("### The readers: parked waiters and the SSE reader")
    w("")
    w(
        f"`bench/readers.py`, on h2load's core: {waiters} waits parked on tokens nobody pushes to (none may be "
        "answered), one unfiltered `GET /v1/events` reader (events of the warm-up and the measured run). "
        "In place (the `apns_mock_waiters` gauge at "
        f"{waiters}, the SSE answer 200) before the warm-up. SSE events / records made: the events read by the "
        "time the readers stopped (right after the measured run), over the requests of the warm-up and the "
        "measured run (broadcasts included): below 100 % the stream trailed the records. Median (min–max) over "
        "the rounds."
    )
    killed = int(meta.get("mock_killed", "0") or 0)
    if killed:
        w("")
        w(
            f"{killed} apns-mock process(es) of this bench did not exit within 5 s of SIGTERM and were KILLed "
            "(after their figures were taken): parked waits can hold up apns-mock's shutdown until they time out."
        )
    w("")
    w("| server | scenario | waiters parked at the end | SSE events | SSE events / records made | SSE MiB "
      "| readers' CPU s in the measured run | in place after, ms |")
    w("|---|---|---:|---:|---:|---:|---:|---:|")
    for server in SERVERS:
        for scenario, _ in SCENARIOS:
            rs = [r for r in rows if r["server"] == server and r["scenario"] == scenario]
            if not rs:
                continue
            ds = [r["readers"] for r in rs]
            shares = []
            for r, d in zip(rs, ds):
                made = (r.get("warmup_done") or 0) + (r.get("done") or 0) + ((r.get("broadcast") or {}).get("done") or 0)
                if made and d.get("sse_events") is not None:
                    shares.append(d["sse_events"] / made)
            w(
                f"| {server} | {scenario} | {fmt_spread([d.get('parked_at_end') for d in ds])} | "
                f"{fmt_spread([d.get('sse_events') for d in ds])} | {fmt_spread(shares, pct)} | "
                f"{fmt_spread([mib(d['sse_bytes'] / 1024) for d in ds if d.get('sse_bytes') is not None], lambda v: f'{v:,.1f}')} | "
                f"{fmt_spread([r.get('readers_cpu_s') for r in rs], two)} | "
                f"{fmt_spread([d['ready_s'] * 1000 for d in ds if d.get('ready_s') is not None])} |"
            )
    w("")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run")
    run.add_argument("--server", required=True)
    run.add_argument("--scenario", required=True)
    run.add_argument("--rep", type=int, required=True)
    run.add_argument("--h2load", required=True)
    run.add_argument("--log")
    run.add_argument("--cpu-ticks", type=int, required=True)
    run.add_argument("--clk-tck", type=int, required=True)
    run.add_argument("--server-core-ticks", type=int, nargs=2, metavar=("BUSY", "STEAL"))
    run.add_argument("--client-core-ticks", type=int, nargs=2, metavar=("BUSY", "STEAL"))
    run.add_argument("--peak-rss-kib", type=int, help="the server's VmHWM after the run")
    run.add_argument("--store-dropped", help="apns-mock: records its store had dropped after the run")
    run.add_argument("--client-cpu", help="h2load's user and system CPU seconds, as one string")
    run.add_argument("--warmup", help="the warm-up run's h2load output (its requests count as records made)")
    run.add_argument("--readers", help="bench/readers.py's JSON line (the readers attached during the run)")
    run.add_argument("--readers-cpu-ticks", type=int, help="bench/readers.py's CPU ticks over the measured run")
    run.add_argument("--broadcast", help="apns-mock+broadcast: the broadcast h2load's output")
    run.add_argument("--broadcast-cpu", help="the broadcast h2load's user and system CPU seconds, as one string")
    run.set_defaults(func=cmd_run)
    table = sub.add_parser("table")
    table.add_argument("--results", required=True)
    table.add_argument("--meta", required=True)
    table.add_argument("--out", required=True)
    table.set_defaults(func=cmd_table)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
