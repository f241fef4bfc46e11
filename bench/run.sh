#!/usr/bin/env bash
# The HTTP/2 load benchmark behind `make bench` (see docs/BENCHMARKS.md).
#
# Measures apns-mock (release build), nghttpd and h2o answering the same APNs push
# (POST /3/device/<token>, 100-byte and 4,000-byte JSON payloads) to h2load, the server pinned to
# one core and h2load to the other: REPS rounds, in each every scenario on every server in turn,
# one server at a time, each run on a freshly started server (a warm-up, then DURATION seconds
# measured; the servers' order rotates by round). /proc gives the server's CPU seconds per run (the
# headline figure is CPU per push against nghttpd's) and the other load on each core (a round with
# other load on the server's core is marked disturbed in the report, never left out).
# apns-mock runs with every feature a test session uses: token auth (verified-token cache),
# recording, and, for the whole run, bench/readers.py (pinned to h2load's core): 100 parked waiters
# (GET /v1/deliveries/wait on tokens nobody pushes to) and one unfiltered Server-Sent-Events reader
# (GET /v1/events). Two more variants of it run as servers of their own in every round, readers too:
# "apns-mock+rules" with 10 fault rules that match nothing (rule-matching cost), and
# "apns-mock+broadcast" with a second h2load sending broadcasts to a channel (BROADCAST_RPS a second) beside the
# device pushes (CPU per request counts both). Then apns-mock alone: start-up time,
# idle memory, memory after recording RECORDS pushes, the admin token query time over them,
# throughput with the store full, and throughput while a client pages through the recorded
# deliveries (bench/pager.py: unfiltered, and filtered by topic) against the same run without it.
#
# Writes bench-results/latest.md (raw h2load output and logs under bench-results/raw/) and prints it.
#
# Environment:
#   BENCH_QUICK=1   1 round of 4-second runs (default: REPS=5 rounds of 10-second runs)
#   BENCH_BIN       the apns-mock binary measured (default .build/release/apns-mock)
#   REPS, DURATION (seconds per measured run), WARMUP_N (requests per warm-up run),
#   READY_STARTS (starts timed), RECORDS (pushes recorded for the memory figure),
#   CAPACITY_DURATION (seconds of the run with the store full),
#   PAGER_LIMIT (records per page of the paging client, 100), PAGER_PAUSE_MS (its pause between pages, 0),
#   READERS_WAITERS (parked waiters of bench/readers.py in the load runs, 100),
#   BROADCAST_RPS (broadcasts per second beside the load of apns-mock+broadcast, 1000),
#   SERVER_CPU / CLIENT_CPU (cores for taskset; default 0 and 1)
#   BASELINE_BIN    another apns-mock binary, such as an earlier commit's release build (make bench
#                   BENCH_BASELINE=<rev> builds one): measured as server "baseline" in every load round
#                   (the servers' order rotates by round; with the readers, as apns-mock), and in the
#                   paging runs alone and with the unfiltered pager,
#                   so the report can give this build's cost against it round by round
#   BASELINE_LABEL  what the report calls the baseline (default: the binary's path)
#
# Expects the release binary: make release (the Makefile's bench
# target builds it first), or BENCH_BIN. Installs nghttp2-client, nghttp2-server and h2o through apt
# if missing. Everything listens and connects on 127.0.0.1 only. Every process it starts is stopped
# on exit, also on failure; every h2load run, and every reader, is bounded.

set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD

QUICK=${BENCH_QUICK:-0}
[[ $QUICK == 0 || $QUICK == "" ]] && QUICK=0 || QUICK=1
if ((QUICK)); then
    REPS=${REPS:-1} DURATION=${DURATION:-4} WARMUP_N=${WARMUP_N:-5000} READY_STARTS=${READY_STARTS:-3}
else
    REPS=${REPS:-5} DURATION=${DURATION:-10} WARMUP_N=${WARMUP_N:-20000} READY_STARTS=${READY_STARTS:-5}
fi
RECORDS=${RECORDS:-1000000}
CAPACITY_DURATION=${CAPACITY_DURATION:-$((DURATION < 5 ? DURATION : 5))}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
QUERY_REPS=5

BIN=${BENCH_BIN:-.build/release/apns-mock}
READERS_WAITERS=${READERS_WAITERS:-100}
BROADCAST_RPS=${BROADCAST_RPS:-1000}
CONFIG=bench/apns-mock-bench.yaml
OUT=bench-results
RAW=$OUT/raw
RESULTS=$RAW/results.jsonl
REPORT=bench/report.py

exec {LOG_FD}>&2 # the script's own stderr, also from inside redirected blocks (traps run there)
log() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&"$LOG_FD"; }
die() { log "ERROR: $*"; exit 1; }

# ---------------------------------------------------------------------------------------------
# Packages: installs what is missing, and nothing else (the Makefile's deps pattern).
SUDO=""; [[ $(id -u) == 0 ]] || SUDO=sudo
missing=""
for p in nghttp2-client nghttp2-server h2o curl python3 util-linux; do
    case $p in
        python3) command -v python3 >/dev/null && continue ;;
        util-linux) command -v taskset >/dev/null && command -v flock >/dev/null && continue ;;
    esac
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [[ -n $missing ]]; then
    log "installing:$missing"
    # shellcheck disable=SC2086
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
fi
for tool in h2load nghttpd curl python3 taskset flock; do
    command -v "$tool" >/dev/null || die "$tool not found"
done
[[ -x $BIN ]] || die "$BIN is missing: run make release (make bench builds it), or name one with BENCH_BIN"
BASELINE_BIN=${BASELINE_BIN:-}
[[ -z $BASELINE_BIN || -x $BASELINE_BIN ]] || die "BASELINE_BIN=$BASELINE_BIN is not an executable"
(($(nproc) >= 2)) || log "WARNING: fewer than 2 cores; server and h2load share one"

# ---------------------------------------------------------------------------------------------
# Clean-up: every process started here is recorded in PIDS and stopped on exit.
WORK=$(mktemp -d /tmp/apns-mock-bench.XXXXXX)
PIDS=()
descendants() { # PID: its children, grandchildren, ... (one per line)
    local c
    for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
        echo "$c"
        descendants "$c"
    done
}
STOP_KILLED=0 # set by stop_pid: 1 when the process was still there 5 s after TERM
stop_pid() { # PID: TERM it and its descendants, KILL after 5 s, reap it
    local pid=$1 all p i
    STOP_KILLED=0
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
    all="$pid $(descendants "$pid")"
    for p in $all; do kill -TERM "$p" 2>/dev/null || true; done
    for ((i = 0; i < 50; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -0 "$pid" 2>/dev/null && STOP_KILLED=1
    for p in $all; do kill -KILL "$p" 2>/dev/null || true; done
    wait "$pid" 2>/dev/null || true
}
cleanup() {
    local rc=$? pid
    trap - EXIT INT TERM
    for pid in "${PIDS[@]}"; do stop_pid "$pid"; done
    rm -rf "$WORK"
    ((rc == 0)) || log "failed (exit $rc); every process started was stopped"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

forget_pid() { # PID: drop from PIDS once stopped
    local keep=() p
    for p in "${PIDS[@]}"; do [[ $p == "$1" ]] || keep+=("$p"); done
    PIDS=("${keep[@]}")
}

# ---------------------------------------------------------------------------------------------
# /proc readings. CPU is utime+stime (fields 14 and 15 of /proc/PID/stat, in clock ticks) summed
# over the server process and its descendants (h2o runs its private-key process beside the server).
CLK_TCK=$(getconf CLK_TCK)
cpu_ticks() { # PID
    local total=0 p rest f
    for p in "$1" $(descendants "$1"); do
        rest=$(sed 's/^.*) //' /proc/"$p"/stat 2>/dev/null) || continue
        # after "comm) ": field 3 is state, so utime (14) and stime (15) are the 12th and 13th.
        read -r -a f <<<"$rest"
        total=$((total + f[11] + f[12]))
    done
    echo "$total"
}
status_kib() { # PID FIELD: e.g. VmRSS, VmHWM, in KiB, summed over the process and its descendants
    local total=0 p v
    for p in "$1" $(descendants "$1"); do
        v=$(awk -v k="$2:" '$1 == k { print $2 }' /proc/"$p"/status 2>/dev/null) || continue
        total=$((total + ${v:-0}))
    done
    echo "$total"
}

core_ticks() { # CORE: "BUSY STEAL" clock ticks of that core since boot (/proc/stat), to see
    # whether something besides the server ran on the server's core during a measured run
    awk -v c="cpu$1" '$1 == c { print $2 + $3 + $4 + $7 + $8, $9 }' /proc/stat
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
wait_for_port() { # PORT PID: until the port accepts connections (10 s at most)
    local i
    for ((i = 0; i < 200; i++)); do
        kill -0 "$2" 2>/dev/null || return 1
        (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null && return 0
        sleep 0.05
    done
    return 1
}

# ---------------------------------------------------------------------------------------------
# One benchmark at a time: a second run would load the same two cores and share bench-results/.
mkdir -p "$OUT"
exec {LOCK_FD}>"$OUT/.bench.lock"
if ! flock -n "$LOCK_FD"; then
    log "another bench run holds $OUT/.bench.lock; waiting for it (20 min at most)"
    flock -w 1200 "$LOCK_FD" || die "the other bench run did not finish"
fi

# The request every server gets.
rm -rf "$RAW"
mkdir -p "$RAW"
: >"$RESULTS"
JWT=$($BIN token --key certs/AuthKey_ABC123DEFG.p8 --key-id ABC123DEFG --team-id DEF123GHIJ)
DEVICE=$(printf 'ab%.0s' {1..32})  # 32-byte device token, 64 hex digits
DEVICE2=$(printf '5e%.0s' {1..32}) # the one push made after the million records, then queried
PATH_DEVICE=/3/device/$DEVICE
HEADERS=(-H "apns-topic: com.example.app" -H "apns-push-type: alert" -H "apns-priority: 10"
    -H "authorization: bearer $JWT")
PAYLOAD_100=bench/payload-100.json
PAYLOAD_4K=bench/payload-4k.json
# name payload clients streams-per-client
SCENARIOS=("throughput-100 $PAYLOAD_100 4 64" "throughput-4k $PAYLOAD_4K 4 64" "latency-100 $PAYLOAD_100 1 1")

# Broadcasts (apns-mock+broadcast): to a channel of BUNDLE that the server creates at start.
BUNDLE=com.example.app
PATH_BROADCAST=/4/broadcasts/apps/$BUNDLE
PAYLOAD_BROADCAST=bench/payload-broadcast.json
BCAST_HEADERS=(-H "apns-push-type: LiveActivity" -H "apns-priority: 10" -H "apns-expiration: 0"
    -H "authorization: bearer $JWT")
# apns-mock+rules: FAULT_RULES rules, each on a device token of its own that nobody pushes to.
FAULT_RULES=10
nomatch_token() { printf 'cd%.0s' {1..31}; printf '%02x' "$1"; }

# A first push through curl: the status code (expects 200) and the body.
probe() { # NAME PORT: prints the status code; the body goes to $RAW/probe-NAME.txt
    curl -s --max-time 30 --http2 --cacert certs/ca.pem --connect-to "localhost:$2:127.0.0.1:$2" -o "$RAW/probe-$1.txt" \
        -w '%{http_code}' "${HEADERS[@]}" --data-binary @"$PAYLOAD_100" \
        "https://localhost:$2$PATH_DEVICE" || echo "curl-failed"
}

# A first broadcast through curl: the status code (expects 200); the body goes to $RAW/probe-broadcast.txt
probe_broadcast() { # PORT CHANNEL
    curl -s --max-time 30 --http2 --cacert certs/ca.pem --connect-to "localhost:$1:127.0.0.1:$1" -o "$RAW/probe-broadcast.txt" \
        -w '%{http_code}' -H "apns-channel-id: $2" "${BCAST_HEADERS[@]}" --data-binary @"$PAYLOAD_BROADCAST" \
        "https://localhost:$1$PATH_BROADCAST" || echo "curl-failed"
}

# Every h2load run stops by itself (-n or -D); H2LOAD_LIMIT seconds is the backstop if a server hangs.
H2LOAD_LIMIT=$((DURATION + 120))
# bench/readers.py lives through a warm-up and a measured run, each bounded by H2LOAD_LIMIT.
READERS=bench/readers.py
READERS_LIMIT=$((2 * H2LOAD_LIMIT + 60))
h2load_run() { # PORT PAYLOAD CLIENTS STREAMS OUTFILE [h2load options...]; h2load's CPU s in OUTFILE.cpu
    local port=$1 payload=$2 c=$3 m=$4 out=$5 rc=0 TIMEFORMAT='%U %S'
    shift 5
    { time timeout -k 5 "$H2LOAD_LIMIT" taskset -c "$CLIENT_CPU" h2load "${HEADERS[@]}" -d "$payload" -c "$c" -m "$m" "$@" \
        "https://127.0.0.1:$port$PATH_DEVICE" >"$out" 2>&1 || rc=$?; } 2>"$out.cpu"
    ((rc == 0)) || log "h2load exited $rc (see $out)"
}

# The broadcast h2load of apns-mock+broadcast, in the background (BCAST_PID) beside the measured
# run: one stream at a time, BROADCAST_RPS a second, RUN_DURATION seconds; its CPU s in OUTFILE.cpu.
BCAST_PID=""
start_broadcasts() { # PORT OUTFILE
    local port=$1 out=$2
    (
        TIMEFORMAT='%U %S'
        time timeout -k 5 "$H2LOAD_LIMIT" taskset -c "$CLIENT_CPU" h2load -H "apns-channel-id: $BCAST_CHANNEL" \
            "${BCAST_HEADERS[@]}" -d "$PAYLOAD_BROADCAST" -c 1 -m 1 --rps "$BROADCAST_RPS" -D "$RUN_DURATION" \
            "https://127.0.0.1:$port$PATH_BROADCAST" >"$out" 2>&1 || exit $?
    ) 2>"$out.cpu" &
    BCAST_PID=$!
    PIDS+=("$BCAST_PID")
}
wait_broadcasts() { # OUTFILE
    local rc=0
    wait "$BCAST_PID" || rc=$?
    forget_pid "$BCAST_PID"
    BCAST_PID=""
    ((rc == 0)) || log "broadcast h2load exited $rc (see $1)"
}

# bench/readers.py against the apns-mock on MOCK_ADMIN, pinned to h2load's core: READERS_WAITERS
# parked waiters and one SSE reader, until stop_readers. Waits (10 s at most) for its ready file;
# when they are not in place it logs a warning, stops it, and the report warns (READERS_OUT says why).
READERS_PID="" READERS_OUT=""
start_readers() { # BASE: its JSON line goes to BASE.readers.json
    local base=$1 ready=$WORK/readers.ready i
    rm -f "$ready"
    READERS_OUT=$base.readers.json
    timeout -k 5 "$READERS_LIMIT" taskset -c "$CLIENT_CPU" python3 "$READERS" --port "$MOCK_ADMIN" \
        --waiters "$READERS_WAITERS" --ready-file "$ready" --ready-timeout 8 --max-seconds $((READERS_LIMIT - 15)) \
        >"$READERS_OUT" 2>"$base.readers.stderr.txt" &
    READERS_PID=$!
    PIDS+=("$READERS_PID")
    for ((i = 0; i < 100; i++)); do
        [[ -e $ready ]] && return 0
        kill -0 "$READERS_PID" 2>/dev/null || break
        sleep 0.1
    done
    log "WARNING: the readers were not in place within 10 s (see $READERS_OUT, $base.readers.stderr.txt)"
    stop_readers
}
stop_readers() { # its JSON line is in READERS_OUT once it has stopped
    [[ -n $READERS_PID ]] || return 0
    stop_pid "$READERS_PID"
    forget_pid "$READERS_PID"
    READERS_PID=""
}
is_mock() { [[ $1 == apns-mock || $1 == apns-mock+* || $1 == baseline ]]; }

# One measured run: a warm-up, then RUN_DURATION seconds with h2load's per-request log, against
# the server PID on PORT; appends one JSON line to $RESULTS. Readers started before it (start_readers)
# are stopped at its end, their CPU time over the measured run and their JSON line go in the row;
# apns-mock+broadcast gets its broadcasts beside the measured run.
measure_run() { # NAME PID PORT SCENARIO PAYLOAD CLIENTS STREAMS REP
    local name=$1 pid=$2 port=$3 scen=$4 payload=$5 c=$6 m=$7 rep=$8 base warm before after extra=()
    local sbusy0 ssteal0 sbusy1 ssteal1 cbusy0 csteal0 cbusy1 csteal1 rcpu0=0 rcpu1=0
    base=$RAW/$name-$scen-$rep
    warm=$WARMUP_N
    ((c == 1 && m == 1)) && warm=$((WARMUP_N / 4))
    if ((warm > 0)); then
        h2load_run "$port" "$payload" "$c" "$m" "$base.warmup.txt" -n "$warm"
        extra+=(--warmup "$base.warmup.txt")
    fi
    read -r sbusy0 ssteal0 <<<"$(core_ticks "$SERVER_CPU")"
    read -r cbusy0 csteal0 <<<"$(core_ticks "$CLIENT_CPU")"
    before=$(cpu_ticks "$pid")
    [[ -z $READERS_PID ]] || rcpu0=$(cpu_ticks "$READERS_PID")
    [[ $name != apns-mock+broadcast ]] || start_broadcasts "$port" "$base.broadcast.txt"
    h2load_run "$port" "$payload" "$c" "$m" "$base.txt" -D "$RUN_DURATION" --log-file="$base.log"
    if [[ -n $BCAST_PID ]]; then
        wait_broadcasts "$base.broadcast.txt"
        extra+=(--broadcast "$base.broadcast.txt" --broadcast-cpu "$(cat "$base.broadcast.txt.cpu")")
    fi
    after=$(cpu_ticks "$pid")
    [[ -z $READERS_PID ]] || rcpu1=$(cpu_ticks "$READERS_PID")
    read -r sbusy1 ssteal1 <<<"$(core_ticks "$SERVER_CPU")"
    read -r cbusy1 csteal1 <<<"$(core_ticks "$CLIENT_CPU")"
    if [[ -n $READERS_OUT ]]; then
        stop_readers
        extra+=(--readers "$READERS_OUT" --readers-cpu-ticks $((rcpu1 - rcpu0)))
        READERS_OUT=""
    fi
    ! is_mock "$name" || extra+=(--store-dropped "$(mock_dropped)")
    python3 "$REPORT" run --server "$name" --scenario "$scen" --rep "$rep" \
        --h2load "$base.txt" --log "$base.log" --cpu-ticks $((after - before)) --clk-tck "$CLK_TCK" \
        --server-core-ticks $((sbusy1 - sbusy0)) $((ssteal1 - ssteal0)) \
        --client-core-ticks $((cbusy1 - cbusy0)) $((csteal1 - csteal0)) \
        --client-cpu "$(cat "$base.txt.cpu")" --peak-rss-kib "$(status_kib "$pid" VmHWM)" "${extra[@]}" >>"$RESULTS"
    rm -f "$base.log"
    log "$name $scen rep $rep: $(grep -m1 '^finished in' "$base.txt" || echo 'no result')"
}

# REPS rounds; in each, every scenario on every server, one server after another, each on a
# freshly started process; every apns-mock (its variants and the baseline) with the readers attached
# from before the warm-up to the end of the measured run. apns-mock's store so starts empty every time and stays below its
# capacity (the "at capacity" run below measures it full). The servers take turns scenario by
# scenario, so the runs compared in a ratio are at most a minute apart. Their order rotates from
# round to round, so no server always runs first or right after another (with a fixed order, one
# run had the baseline build 10 % ahead of apns-mock in the load rounds, where it always ran right
# after it, and 6 % behind in the paging runs of the same bench, whose order rotated).
measure_all() { # SERVER...
    local rep sc scen payload c m name k servers=("$@")
    for ((rep = 1; rep <= REPS; rep++)); do
        for sc in "${SCENARIOS[@]}"; do
            read -r scen payload c m <<<"$sc"
            for ((k = 0; k < ${#servers[@]}; k++)); do
                name=${servers[(k + rep - 1) % ${#servers[@]}]}
                start_server "$name" || die "$name did not start"
                ! is_mock "$name" || start_readers "$RAW/$name-$scen-$rep"
                measure_run "$name" "$SRV_PID" "$SRV_PORT" "$scen" "$payload" "$c" "$m" "$rep"
                stop_server
            done
        done
    done
}

# Meta data collected for the report, as KEY=VALUE lines turned into JSON by report.py.
META_KV=$RAW/meta.kv
: >"$META_KV"
meta() { printf '%s=%s\n' "$1" "$2" >>"$META_KV"; }

meta date "$(date -u '+%Y-%m-%d %H:%M UTC')"
meta quick "$QUICK"
meta reps "$REPS"
meta duration "$DURATION"
meta warmup_n "$WARMUP_N"
meta records "$RECORDS"
meta capacity_duration "$CAPACITY_DURATION"
meta bin "$BIN"
meta readers_waiters "$READERS_WAITERS"
meta fault_rules "$FAULT_RULES"
meta broadcast_rps "$BROADCAST_RPS"
meta server_cpu "$SERVER_CPU"
meta client_cpu "$CLIENT_CPU"
meta nproc "$(nproc)"
meta cpu_model "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
meta mem_total_kib "$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)"
meta kernel "$(uname -r)"
meta swift "$(swift --version 2>&1 | head -1 || echo unknown)"
meta h2load "$(h2load --version 2>&1 | head -1)"
meta nghttpd "$(nghttpd --version 2>&1 | head -1)"
meta h2o "$(h2o --version 2>/dev/null | head -1 || echo missing)"
meta openssl "$(openssl version 2>/dev/null || echo unknown)"
meta git "$(git describe --always --dirty 2>/dev/null || echo unknown)"
meta loadavg_start "$(cut -d' ' -f1-3 /proc/loadavg)"

# ---------------------------------------------------------------------------------------------
# apns-mock. Started through a FIFO so the ready line is read the moment it is written.
# The load runs use the default record capacity (100,000): the store fills within the first
# second and then drops its oldest record for every push, as in a long test session. The memory
# and query figures use a store of RECORDS (CAPACITY_ARGS).
APNS_ARGS=(serve --port 0 --admin-port 0 --auth-stream-limit off --log-level error --config "$CONFIG")
CAPACITY_ARGS=()
MOCK_PID="" MOCK_PORT="" MOCK_ADMIN="" MOCK_CHANNELS="" MOCK_READY_MS="" MOCK_IDLE_KIB="" READY_FD=""
start_mock() {
    local fifo=$WORK/ready.fifo t0 t1 line
    rm -f "$fifo"
    mkfifo "$fifo"
    t0=$EPOCHREALTIME
    taskset -c "$SERVER_CPU" "${MOCK_BIN:-$BIN}" "${APNS_ARGS[@]}" ${CAPACITY_ARGS[@]+"${CAPACITY_ARGS[@]}"} \
        >"$fifo" 2>>"$RAW/apns-mock.stderr.txt" &
    MOCK_PID=$!
    PIDS+=("$MOCK_PID")
    exec {READY_FD}<"$fifo"
    if ! read -r -t 30 -u "$READY_FD" line; then
        tail -20 "$RAW/apns-mock.stderr.txt" >&2 || true
        die "apns-mock printed no ready line in 30 s"
    fi
    t1=$EPOCHREALTIME
    MOCK_IDLE_KIB=$(status_kib "$MOCK_PID" VmRSS)
    MOCK_READY_MS=$(python3 -c "print(f'{($t1 - $t0) * 1000:.1f}')")
    [[ $line =~ apns=https://[^:/]+:([0-9]+).*admin=http://[^:/]+:([0-9]+) ]] ||
        die "unexpected ready line: $line"
    MOCK_PORT=${BASH_REMATCH[1]}
    MOCK_ADMIN=${BASH_REMATCH[2]}
    MOCK_CHANNELS=""
    if [[ $line =~ channels=https://[^:/]+:([0-9]+) ]]; then MOCK_CHANNELS=${BASH_REMATCH[1]}; fi
}
MOCK_KILLED=0 # apns-mock starts that did not exit within 5 s of SIGTERM (so were KILLed)
stop_mock() {
    stop_pid "$MOCK_PID"
    if ((STOP_KILLED)); then
        ((MOCK_KILLED > 0)) || log "apns-mock did not exit within 5 s of SIGTERM; KILLed (counted in the report)"
        MOCK_KILLED=$((MOCK_KILLED + 1))
    fi
    forget_pid "$MOCK_PID"
    exec {READY_FD}<&-
}

# apns-mock+rules: FAULT_RULES fault rules that match none of the load (POST /v1/faults, each answered 2xx).
add_fault_rules() {
    local i code
    for ((i = 1; i <= FAULT_RULES; i++)); do
        code=$(curl -s --max-time 10 -o "$RAW/fault-rule.json" -w '%{http_code}' -H 'content-type: application/json' \
            --data-binary "{\"id\":\"bench-nomatch-$i\",\"match\":{\"token\":\"$(nomatch_token "$i")\"},\"action\":{\"respond\":{\"status\":410,\"reason\":\"Unregistered\"}}}" \
            "http://127.0.0.1:$MOCK_ADMIN/v1/faults") || code=curl-failed
        if [[ $code != 2?? ]]; then
            log "POST /v1/faults answered $code: $(head -c 300 "$RAW/fault-rule.json" 2>/dev/null)"
            return 1
        fi
    done
}

# apns-mock+broadcast: a channel of BUNDLE on the channel-management port; sets BCAST_CHANNEL.
BCAST_CHANNEL=""
create_channel() {
    local code
    [[ -n $MOCK_CHANNELS ]] || { log "the ready line names no channels= port"; return 1; }
    code=$(curl -s --max-time 10 --http2 --cacert certs/ca.pem \
        --connect-to "localhost:$MOCK_CHANNELS:127.0.0.1:$MOCK_CHANNELS" -D "$WORK/channel.headers" \
        -o "$RAW/channel-create.txt" -w '%{http_code}' -H "authorization: bearer $JWT" \
        --data-binary '{"message-storage-policy":0,"push-type":"LiveActivity"}' \
        "https://localhost:$MOCK_CHANNELS/1/apps/$BUNDLE/channels") || code=curl-failed
    BCAST_CHANNEL=$(tr -d '\r' <"$WORK/channel.headers" 2>/dev/null | sed -n 's/^apns-channel-id: *//Ip' | head -1)
    if [[ $code != 2?? || -z $BCAST_CHANNEL ]]; then
        log "creating a channel answered $code (channel id '${BCAST_CHANNEL}'): $(head -c 300 "$RAW/channel-create.txt" 2>/dev/null)"
        return 1
    fi
}

mock_dropped() { # how many records apns-mock's store has dropped to stay within its capacity
    curl -s --max-time 30 "http://127.0.0.1:$MOCK_ADMIN/v1/deliveries?token=$DEVICE2&limit=1" |
        python3 -c 'import json, sys; print(json.load(sys.stdin).get("dropped", "?"))' 2>/dev/null || echo '?'
}

# nghttpd: an empty file at the same path, so the POST is answered 200 with an empty body.
DOCROOT=$WORK/docroot
mkdir -p "$DOCROOT/3/device"
: >"$DOCROOT/3/device/$DEVICE"

# h2o: one thread, an mruby handler answering 200 with an empty body, the same certificate.
write_h2o_conf() { # PORT
    cat >"$RAW/h2o.conf" <<EOF
# Generated by bench/run.sh
num-threads: 1
error-log: $ROOT/$RAW/h2o.error-log.txt
listen:
  host: 127.0.0.1
  port: $1
  ssl:
    certificate-file: $ROOT/certs/server.pem
    key-file: $ROOT/certs/server-key.pem
    ocsp-update-interval: 0
hosts:
  default:
    paths:
      /:
        mruby.handler: |
          Proc.new do |env|
            [200, {}, []]
          end
EOF
}

SRV_PID="" SRV_PORT="" SRV_NAME=""
start_server() { # NAME: sets SRV_PID and SRV_PORT; fails if the server does not listen in 10 s
    SRV_NAME=$1
    case $1 in
        apns-mock | apns-mock+rules | apns-mock+broadcast)
            start_mock
            SRV_PID=$MOCK_PID SRV_PORT=$MOCK_PORT
            case $1 in
                apns-mock+rules) add_fault_rules || return 1 ;;
                apns-mock+broadcast) create_channel || return 1 ;;
            esac
            return 0
            ;;
        baseline)
            MOCK_BIN=$BASELINE_BIN start_mock
            SRV_PID=$MOCK_PID SRV_PORT=$MOCK_PORT
            return 0
            ;;
        nghttpd)
            SRV_PORT=$(free_port)
            taskset -c "$SERVER_CPU" nghttpd -d "$DOCROOT" "$SRV_PORT" certs/server-key.pem certs/server.pem \
                >>"$RAW/nghttpd.log.txt" 2>&1 &
            ;;
        h2o)
            SRV_PORT=$(free_port)
            write_h2o_conf "$SRV_PORT"
            taskset -c "$SERVER_CPU" h2o -c "$RAW/h2o.conf" >>"$RAW/h2o.stdout.txt" 2>&1 &
            ;;
    esac
    SRV_PID=$!
    PIDS+=("$SRV_PID")
    wait_for_port "$SRV_PORT" "$SRV_PID"
}
stop_server() {
    stop_readers
    READERS_OUT=""
    if [[ -n $BCAST_PID ]]; then
        stop_pid "$BCAST_PID"
        forget_pid "$BCAST_PID"
        BCAST_PID=""
    fi
    if is_mock "$SRV_NAME"; then
        BCAST_CHANNEL=""
        stop_mock
    else
        stop_pid "$SRV_PID"
        forget_pid "$SRV_PID"
    fi
}

# Each server once: does it start, and answer the push with 200?
log "apns-mock: $BIN ${APNS_ARGS[*]}"
start_server apns-mock
meta mock_probe "$(probe apns-mock "$SRV_PORT")"
stop_server
# The variants: the push still answered 200 beside the fault rules; the broadcast answered 200.
for variant in apns-mock+rules apns-mock+broadcast; do
    start_server "$variant" || die "$variant: its set-up failed"
    meta "${variant}_probe" "$(probe "$variant" "$SRV_PORT")"
    [[ $variant != apns-mock+broadcast ]] || meta broadcast_probe "$(probe_broadcast "$SRV_PORT" "$BCAST_CHANNEL")"
    stop_server
done
log "apns-mock+rules: $FAULT_RULES fault rules (POST /v1/faults) matching tokens nobody pushes to"
log "apns-mock+broadcast: a channel, broadcasts at $BROADCAST_RPS/s (-c 1 -m 1) beside the device pushes"
MOCKS=(apns-mock apns-mock+rules apns-mock+broadcast)
if [[ -n $BASELINE_BIN ]]; then
    MOCKS+=(baseline)
    meta baseline_label "${BASELINE_LABEL:-$BASELINE_BIN}"
    log "baseline: $BASELINE_BIN ${APNS_ARGS[*]}"
    start_server baseline
    meta baseline_probe "$(probe baseline "$SRV_PORT")"
    stop_server
fi
log "nghttpd: nghttpd -d DOCROOT PORT certs/server-key.pem certs/server.pem (DOCROOT/3/device/<token>: empty file)"
start_server nghttpd || die "nghttpd did not start (see $RAW/nghttpd.log.txt)"
meta nghttpd_probe "$(probe nghttpd "$SRV_PORT")"
stop_server
h2o_reason=""
if ! command -v h2o >/dev/null; then
    h2o_reason="h2o is not installed"
elif ! h2o --version 2>/dev/null | grep -q 'mruby: YES'; then
    h2o_reason="this h2o build has no mruby, and its static file handler does not answer POST with 200"
else
    log "h2o: h2o -c $RAW/h2o.conf (mruby handler)"
    if start_server h2o; then
        status=$(probe h2o "$SRV_PORT")
        meta h2o_probe "$status"
        [[ $status == 200 ]] || h2o_reason="h2o answered $status, not 200, to the POST"
    else
        h2o_reason="h2o did not start: $(tail -1 "$RAW/h2o.stdout.txt" 2>/dev/null)"
    fi
    stop_server
fi
[[ -z $h2o_reason ]] || { log "h2o unavailable: $h2o_reason"; meta h2o_unavailable "$h2o_reason"; }

# The load runs.
RUN_DURATION=$DURATION
if [[ -z $h2o_reason ]]; then measure_all "${MOCKS[@]}" nghttpd h2o; else measure_all "${MOCKS[@]}" nghttpd; fi

# ---------------------------------------------------------------------------------------------
# apns-mock alone. Start-up time and idle memory: READY_STARTS fresh starts; the last one then
# records RECORDS pushes, serves the token query, and is measured once more with its store full.
ready_list="" idle_list=""
CAPACITY_ARGS=(--record-capacity "$RECORDS")
log "apns-mock alone: $BIN ${APNS_ARGS[*]} ${CAPACITY_ARGS[*]}"
for ((i = 1; i <= READY_STARTS; i++)); do
    start_mock
    ready_list="$ready_list $MOCK_READY_MS"
    idle_list="$idle_list $MOCK_IDLE_KIB"
    ((i == READY_STARTS)) || stop_mock
done
meta mock_ready_ms "${ready_list# }"
meta mock_idle_rss_kib "${idle_list# }"
log "apns-mock ready (ms):$ready_list; idle VmRSS (KiB):$idle_list"

log "apns-mock: recording $RECORDS pushes"
H2LOAD_LIMIT=900 h2load_run "$MOCK_PORT" "$PAYLOAD_100" 4 64 "$RAW/apns-mock-records.txt" -n "$RECORDS"
python3 "$REPORT" run --server apns-mock --scenario records --rep 1 --h2load "$RAW/apns-mock-records.txt" \
    --cpu-ticks 0 --clk-tck "$CLK_TCK" >>"$RESULTS"
sleep 1
meta mock_rss_after_records_kib "$(status_kib "$MOCK_PID" VmRSS)"
meta mock_hwm_after_records_kib "$(status_kib "$MOCK_PID" VmHWM)"
meta mock_stored_total "$(curl -s --max-time 60 "http://127.0.0.1:$MOCK_ADMIN/v1/deliveries?limit=1" |
    python3 -c 'import json, sys; print(json.load(sys.stdin).get("total", "?"))' 2>/dev/null || echo '?')"
meta mock_push2_status "$(curl -s --max-time 30 --http2 --cacert certs/ca.pem \
    --connect-to "localhost:$MOCK_PORT:127.0.0.1:$MOCK_PORT" -o /dev/null -w '%{http_code}' \
    "${HEADERS[@]}" --data-binary @"$PAYLOAD_100" "https://localhost:$MOCK_PORT/3/device/$DEVICE2" || echo curl-failed)"
query_url="http://127.0.0.1:$MOCK_ADMIN/v1/deliveries?token=$DEVICE2&limit=1"
q_list=""
for ((i = 1; i <= QUERY_REPS; i++)); do
    q_list="$q_list $(curl -s --max-time 30 -o "$RAW/token-query.json" -w '%{time_total}' "$query_url")"
done
meta mock_query_s "${q_list# }"
meta mock_query_found "$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(sum(1 for x in d.get("deliveries", []) if x.get("token") == sys.argv[2]))' \
    "$RAW/token-query.json" "$DEVICE2" 2>/dev/null || echo 0)"
log "apns-mock token query (s):$q_list"

# At capacity: the throughput run (no warm-up) with the store full, so every push also drops the
# oldest record. No target: it shows what a long test session that fills the store gets.
RUN_DURATION=$CAPACITY_DURATION WARMUP_N=0 measure_run apns-mock "$MOCK_PID" "$MOCK_PORT" at-capacity \
    "$PAYLOAD_100" 4 64 1
stop_mock
CAPACITY_ARGS=()

# Paging while pushing: what a client reading the deliveries costs the push path. In each of the
# REPS rounds, on a freshly started apns-mock each time, the 100 B `-c 4 -m 64` throughput run
# (same warm-up and DURATION as above) alone, and while bench/pager.py pages through
# GET /v1/deliveries (limit PAGER_LIMIT, ascending, following `next`, one page after the other,
# PAGER_PAUSE_MS between pages), unfiltered and with topic=PAGER_TOPIC (so the store filters), and
# with lint=error (so the store analyses every record it passes: lint and preview of each, none
# of which has an error) — each page of the unfiltered pager analyses its records too.
# The pager starts right after the warm-up, runs DURATION seconds and is pinned to h2load's core,
# so the server keeps its core to itself. The order of the three rotates from round to round.
PAGER=bench/pager.py
PAGER_LIMIT=${PAGER_LIMIT:-100}
PAGER_PAUSE_MS=${PAGER_PAUSE_MS:-0}
PAGER_TOPIC=com.example.app
meta pager_limit "$PAGER_LIMIT"
meta pager_pause_ms "$PAGER_PAUSE_MS"
meta pager_topic "$PAGER_TOPIC"
# SERVER VARIANT pairs; the baseline (BASELINE_BIN) runs alone and with the unfiltered pager.
PAGING_RUNS=("apns-mock alone" "apns-mock unfiltered" "apns-mock topic" "apns-mock lint" "apns-mock waiters")
[[ -z $BASELINE_BIN ]] || PAGING_RUNS+=("baseline alone" "baseline unfiltered")
pager_summary() { # FILE: the pager's JSON line in a few words
    python3 - "$1" <<'EOF' 2>/dev/null || echo 'no result'
import json, sys
d = json.loads(open(sys.argv[1]).readline())
print(f"{d['pages']} pages, {d['records']} records, {d['errors']} errors, "
      f"page p50 {d['p50_ms']} ms, p99 {d['p99_ms']} ms, max {d['max_ms']} ms")
EOF
}
paging_run() { # SERVER VARIANT REP: one measured run, appends its row; the pager's JSON goes to meta
    local server=$1 variant=$2 rep=$3 scen=paging-$2 base pager_pid="" rc=0 args=() key=$2
    [[ $server == apns-mock ]] || key=${server}_$variant
    base=$RAW/$server-$scen-$rep
    start_server "$server"
    if ((WARMUP_N > 0)); then
        h2load_run "$MOCK_PORT" "$PAYLOAD_100" 4 64 "$base.warmup.txt" -n "$WARMUP_N"
    fi
    case $variant in
        unfiltered) args=() ;;
        topic) args=(--param "topic=$PAGER_TOPIC") ;;
        lint) args=(--param "lint=error") ;;
    esac
    if [[ $variant == waiters ]]; then
        # 100 waits that never match stay parked through the run; a probe measures wake-up latency.
        timeout -k 5 $((DURATION + 60)) taskset -c "$CLIENT_CPU" python3 bench/waiters.py --port "$MOCK_ADMIN" \
            --apns-port "$MOCK_PORT" --jwt "$JWT" --duration "$DURATION" --waiters 100 \
            >"$base.pager.json" 2>"$base.pager.stderr.txt" &
        pager_pid=$!
        PIDS+=("$pager_pid")
    elif [[ $variant != alone ]]; then
        timeout -k 5 $((DURATION + 30)) taskset -c "$CLIENT_CPU" python3 "$PAGER" --port "$MOCK_ADMIN" \
            --duration "$DURATION" --limit "$PAGER_LIMIT" --pause-ms "$PAGER_PAUSE_MS" "${args[@]}" \
            >"$base.pager.json" 2>"$base.pager.stderr.txt" &
        pager_pid=$!
        PIDS+=("$pager_pid")
    fi
    RUN_DURATION=$DURATION WARMUP_N=0 measure_run "$server" "$MOCK_PID" "$MOCK_PORT" "$scen" "$PAYLOAD_100" 4 64 "$rep"
    if [[ -n $pager_pid ]]; then
        wait "$pager_pid" || rc=$?
        forget_pid "$pager_pid"
        ((rc == 0)) || log "pager exited $rc (see $base.pager.stderr.txt)"
        meta "pager_${key}_$rep" "$(head -1 "$base.pager.json")"
        if [[ $variant == waiters ]]; then
            log "waiters rep $rep: $(head -1 "$base.pager.json")"
        else
            log "pager $server $variant rep $rep: $(pager_summary "$base.pager.json")"
        fi
    fi
    stop_server
}
for ((rep = 1; rep <= REPS; rep++)); do
    for ((k = 0; k < ${#PAGING_RUNS[@]}; k++)); do
        # shellcheck disable=SC2086 # "SERVER VARIANT" splits into the two arguments
        paging_run ${PAGING_RUNS[(k + rep - 1) % ${#PAGING_RUNS[@]}]} "$rep"
    done
done

# ---------------------------------------------------------------------------------------------
meta loadavg_end "$(cut -d' ' -f1-3 /proc/loadavg)"
meta mock_killed "$MOCK_KILLED"
python3 "$REPORT" table --results "$RESULTS" --meta "$META_KV" --out "$OUT/latest.md"
cat "$OUT/latest.md"
log "written: $OUT/latest.md (raw h2load output: $RAW/)"
