#!/usr/bin/env bash
# End-to-end throughput of `warcsift extract` against `zcat` and the Python peers, on one
# WARC, in one run, with the issue's targets checked at the end.
#
#   bash benches/e2e.sh [WARC] [RUNS]
#
# WARC defaults to /tmp/big.warc.gz when it exists (the devset twice, 333 MB uncompressed;
# build it with `python ../shared/tools/peers/make_warc.py --in ../shared/devset
# --out /tmp/big.warc.gz --repeat 2`), else ../shared/warc/dev.warc.gz. RUNS defaults to 3.
#
# Contenders, interleaved per round so machine noise hits all of them alike:
#   zcat                               decompression only
#   warcsift -a none -t 1, on CPU N     parse only: read, frame, HTTP, charset, no extraction
#   warcsift -t 1, on CPU N             the default method, truly one core (`taskset -c N`:
#                                       the process sees one CPU, so it reads, extracts and
#                                       writes on one thread)
#   warcsift -t 1                       the same, unpinned (reader/writer may use the 2nd core)
#   warcsift -t 2                       two workers, unpinned
#   fastwarc, resiliparse, trafilatura  ../shared/tools/peers/warc_speed.py's modes, through
#                                       benches/peer_run.py, on CPU N (they are one-core)
# N is E2E_CPU, default 0 (the core of every figure in benches/HISTORY.md and of the
# issue's filing-day ratio).
# Every warcsift run writes JSONL+zstd shards (the default output) to a temporary folder.
# trafilatura runs once, capped (E2E_TRAFILATURA_CAP s, default 30) and extrapolated;
# E2E_PEER_RUNS (default RUNS) sets how many rounds run fastwarc and resiliparse.
# The peers need the Python of ../shared/tools/peers/setup_venv.sh: $PEERS_PYTHON, else
# ~/.peers/bin/python, else they are skipped with a message.
#
# Reported per contender: median wall time, pages/s, MB/s (10^6 decompressed bytes), median
# CPU time (user+sys) and the largest peak RSS; then the targets with PASS/FAIL.
# WARCSIFT_ALGO=NAME times that method instead of the default in the warcsift rows (not in
# the parse-only one); WARCSIFT_BIN=PATH times that binary instead of building the `dist`
# profile (the deployed build: fat LTO, see Cargo.toml) into target/dist/warcsift. The
# profile-guided build of ops/build-pgo.sh is WARCSIFT_BIN=target/pgo/warcsift.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -ge 1 ]; then
  warc=$1
elif [ -f /tmp/big.warc.gz ]; then
  warc=/tmp/big.warc.gz
else
  warc=../shared/warc/dev.warc.gz
fi
runs=${2:-3}
peer_runs=${E2E_PEER_RUNS:-$runs}
traf_cap=${E2E_TRAFILATURA_CAP:-30}
algo=${WARCSIFT_ALGO:-}
[ -f "$warc" ] || { echo "SKIP: $warc not found (the shared folder is not beside the repository)"; exit 0; }
warc=$(cd "$(dirname "$warc")" && pwd)/$(basename "$warc")

if [ -n "${WARCSIFT_BIN:-}" ]; then
  bin=$(cd "$(dirname "$WARCSIFT_BIN")" && pwd)/$(basename "$WARCSIFT_BIN")
else
  cargo build --profile dist --quiet --bin warcsift
  bin=$PWD/target/dist/warcsift
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
res=$work/results.tsv   # name, wall s, cpu s, peak RSS KiB
: > "$res"

pin=()
cpu=${E2E_CPU:-0}
if command -v taskset > /dev/null && taskset -c "$cpu" true 2> /dev/null; then
  pin=(taskset -c "$cpu")
else
  echo "note: taskset is missing or cannot pin to CPU $cpu; 'on CPU $cpu' rows are NOT pinned"
fi

# `-a none` (parse only) exists from the throughput work on; older binaries lack it.
have_none=0
if "$bin" extract samples/sample.warc.gz -o "$work/probe" -a none -q > /dev/null 2>&1; then
  have_none=1
else
  echo "note: this binary has no '-a none' (parse only); that row is skipped"
fi

# Peers: a Python with fastwarc, resiliparse and trafilatura.
peers_py=${PEERS_PYTHON:-$HOME/.peers/bin/python}
speed_py=$PWD/../shared/tools/peers/warc_speed.py
have_peers=0
if [ ! -f "$speed_py" ]; then
  echo "note: $speed_py not found: peers skipped"
elif [ ! -x "$peers_py" ]; then
  echo "note: no peers' Python at $peers_py (set PEERS_PYTHON, or run ../shared/tools/peers/setup_venv.sh): peers skipped"
elif ! "$peers_py" -c 'import fastwarc, resiliparse, trafilatura' 2> /dev/null; then
  echo "note: $peers_py cannot import fastwarc, resiliparse and trafilatura: peers skipped"
else
  have_peers=1
fi

# Runs "$@" (output to /dev/null), appends "name wall cpu rss" to $res.
timed() {
  local name=$1; shift
  local tf=$work/time.out t0 t1
  t0=$EPOCHREALTIME
  /usr/bin/time -f '%U %S %M' -o "$tf" "$@" > /dev/null 2> "$work/last.stderr" || {
    echo "FAILED: $name: $*" >&2; cat "$work/last.stderr" >&2; exit 1; }
  t1=$EPOCHREALTIME
  read -r u s m < <(tail -n 1 "$tf")
  awk -v n="$name" -v a="$t0" -v b="$t1" -v u="$u" -v s="$s" -v m="$m" \
    'BEGIN { printf "%s\t%.4f\t%.3f\t%d\n", n, b - a, u + s, m }' >> "$res"
}

# warcsift run NAME PIN|- ARGS...: fresh output folder each time (removing it is not timed).
ws() {
  local name=$1 how=$2; shift 2
  local pre=()
  [ "$how" = pin ] && pre=("${pin[@]}")
  rm -rf "${work:?}/$name"
  timed "$name" "${pre[@]}" "$bin" extract "$warc" -o "$work/$name" -q "$@"
}

# A peer mode, one run; its own timing (wall, CPU) goes to $res through peer_run.py.
peer() {
  local mode=$1 cap=$2
  "${pin[@]}" "$peers_py" -B benches/peer_run.py "$speed_py" "$warc" "$mode" "$cap" \
    "$work/peer-info.json" "$work/peers.jsonl" >> "$res"
}

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs; $(uname -srm)"
echo "binary:  $bin ($(date -r "$bin" '+%F %T'))"
echo "input:   $warc; $runs rounds"
if [ "$have_peers" = 1 ]; then
  echo "peers:   $peers_py; fastwarc and resiliparse in $peer_runs round(s), trafilatura once, capped at ${traf_cap}s and extrapolated"
  "$peers_py" -B benches/peer_run.py "$speed_py" "$warc" info 0 "$work/peer-info.json" /dev/null
fi
for ((r = 0; r < runs; r++)); do
  echo "round $((r + 1))/$runs ..." >&2
  timed zcat zcat "$warc"
  if [ "$have_none" = 1 ]; then ws none-pinned pin -a none -t 1; fi
  ws t1-pinned pin -t 1 ${algo:+-a "$algo"}
  ws t1 - -t 1 ${algo:+-a "$algo"}
  ws t2 - -t 2 ${algo:+-a "$algo"}
  if [ "$have_peers" = 1 ]; then
    if ((r < peer_runs)); then
      peer fastwarc 0
      peer resiliparse 0
    fi
    if ((r == 0)); then peer trafilatura "$traf_cap"; fi
  fi
done
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$work" "$(stat -c %s "$warc")" "$have_peers" "${#pin[@]}" "$algo" "$cpu" <<'PY'
import json, os, statistics, sys
work, size_gz, have_peers, pinned = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4] != "0"
algo = sys.argv[5] or "default method (auto)"
pin_cpu = sys.argv[6]
rows = {}
for line in open(os.path.join(work, "results.tsv")):
    name, wall, cpu, rss = line.rstrip("\n").split("\t")
    rows.setdefault(name, []).append((float(wall), float(cpu), int(rss)))
stats = json.load(open(os.path.join(work, "t1-pinned", "stats.json")))
recs, pages, mb = stats["records_read"], stats["extracted"], stats["bytes_in"] / 1e6
for name in ("t1", "t2"):
    other = json.load(open(os.path.join(work, name, "stats.json")))
    if (other["records_read"], other["extracted"]) != (recs, pages):
        print(f"WARNING: {name} read {other['records_read']} records and wrote {other['extracted']} pages, "
              f"-t 1 on CPU {pin_cpu} {recs} and {pages}")
peers = {}
if have_peers:
    for line in open(os.path.join(work, "peers.jsonl")):
        r = json.loads(line)
        peers.setdefault(r["mode"], []).append(r)
    info = json.load(open(os.path.join(work, "peer-info.json")))
on0 = f", on CPU {pin_cpu}" if pinned else " (NOT pinned)"
print(f"\ninput: {mb:.0f} MB uncompressed ({size_gz/1e6:.0f} MB gzip), {recs} records, {pages} pages "
      f"(warcsift stats.json of -t 1); {algo}, JSONL+zstd output")
if have_peers:
    c = info["census"]
    print(f"peers' census (fastwarc): {c['records']} records, {c['responses']} responses, {c['html_responses']} text/html")
print(f"\n{'run':46} {'runs':>4} {'wall s':>8} {'pages/s':>9} {'MB/s':>7} {'CPU s':>7} {'RSS MiB':>8}")

table = {}
def row(key, label, n_pages, note=""):
    rs = rows.get(key)
    if not rs:
        return
    wall = statistics.median(r[0] for r in rs)
    cpu = statistics.median(r[1] for r in rs)
    rss = max(r[2] for r in rs) / 1024
    table[key] = {"wall": wall, "cpu": cpu, "pps": n_pages / wall, "rss": rss}
    rss_s = f"{rss:8.0f}" if rss > 0 else f"{'-':>8}"
    print(f"{label:46} {len(rs):>4} {wall:8.2f} {n_pages/wall:9.0f} {mb/wall:7.1f} {cpu:7.2f} {rss_s}  {note}")

row("zcat", "zcat (decompress only)", pages)
row("none-pinned", f"warcsift -a none -t 1{on0}", pages, "parse only")
row("t1-pinned", f"warcsift -t 1{on0}", pages)
row("t1", "warcsift -t 1 (unpinned)", pages)
row("t2", "warcsift -t 2", pages)
if have_peers:
    labels = {"fastwarc": "fastwarc parse-only", "resiliparse": "fastwarc + resiliparse main_content",
              "trafilatura": "fastwarc + trafilatura"}
    for mode in ("fastwarc", "resiliparse", "trafilatura"):
        rs = peers.get(mode, [])
        if not rs:
            continue
        capped = [r for r in rs if not r["finished"]]
        note = "parse only" if mode == "fastwarc" else ""
        if capped:
            r = capped[0]
            note = f"~ extrapolated: {r['docs_done']} of {r['docs_total']} pages in {r['elapsed_s']:.0f}s"
        n_pages = rs[0]["docs_total"] if mode != "fastwarc" else info["census"]["html_responses"]
        # peer_run.py's wall is the full-file time (extrapolated when capped); CPU scaled alike.
        row(mode, labels[mode] + on0, n_pages, note)
print("wall s, CPU s (user+sys): medians over the runs; RSS: largest peak over the runs; pages/s: "
      "each tool's own page count / wall s; MB/s: decompressed MB / wall s")

print(f"\ntargets (single thread = warcsift -t 1 on CPU {pin_cpu}):")
def check(label, value, op, target, fmt="{:.2f}"):
    ok = value >= target if op == ">=" else value <= target
    print(f"  {label:58} {fmt.format(value):>8}  target {op} {fmt.format(target):<6} {'PASS' if ok else 'FAIL'}")
t1 = table.get("t1-pinned")
if t1 and "resiliparse" in table:
    check("pages/s vs fastwarc + resiliparse", t1["pps"] / table["resiliparse"]["pps"], ">=", 10)
if t1 and "trafilatura" in table:
    check("pages/s vs fastwarc + trafilatura (extrapolated)", t1["pps"] / table["trafilatura"]["pps"], ">=", 100)
if t1 and "fastwarc" in table:
    check("wall time / fastwarc parse-only wall time", t1["wall"] / table["fastwarc"]["wall"], "<=", 2.5)
if t1 and "t2" in table:
    check("-t 2 throughput / single-thread throughput", table["t2"]["pps"] / t1["pps"], ">=", 1.8)
ws_rss = [table[k]["rss"] for k in ("none-pinned", "t1-pinned", "t1", "t2") if k in table]
if ws_rss and max(ws_rss) > 0:
    check("largest peak RSS of warcsift here, MiB", max(ws_rss), "<=", 200, "{:.0f}")
if not have_peers:
    print("  (peer targets not checked: peers skipped)")
print("for information:")
if t1 and "t1" in table:
    print(f"  -t 2 / -t 1 unpinned throughput: {table['t2']['pps'] / table['t1']['pps']:.2f}; "
          f"-t 1 unpinned / on CPU {pin_cpu}: {table['t1']['pps'] / t1['pps']:.2f}")
if t1 and "zcat" in table:
    print(f"  single-thread wall / zcat wall: {t1['wall'] / table['zcat']['wall']:.2f}")
if t1 and "none-pinned" in table:
    print(f"  single-thread wall / parse-only (-a none) wall: {t1['wall'] / table['none-pinned']['wall']:.2f}"
          f" (extraction is {1 - table['none-pinned']['wall'] / t1['wall']:.0%} of the time)")
if t1 and "resiliparse" in table and "fastwarc" in table:
    print(f"  the same ratios on CPU time (less sensitive to other load): vs resiliparse "
          f"{table['resiliparse']['cpu'] / t1['cpu']:.2f}x, vs fastwarc parse-only {t1['cpu'] / table['fastwarc']['cpu']:.2f}"
          + (f", vs trafilatura {table['trafilatura']['cpu'] / t1['cpu']:.1f}x" if "trafilatura" in table else ""))
if "none-pinned" in table and "fastwarc" in table:
    print(f"  warcsift parse-only wall / fastwarc parse-only wall: "
          f"{table['none-pinned']['wall'] / table['fastwarc']['wall']:.2f}")
if t1 and "none-pinned" in table:
    # Each single-thread target as a budget, in multiples of warcsift's own parse-only pass:
    # set these against the floor that `cargo bench --bench stages` prints (parse-only plus a
    # bare tag scan, JSONL and zstd level -10), which no extractor can go below.
    parse = table["none-pinned"]["wall"]
    budgets = []
    if "resiliparse" in table:
        budgets.append(("10x resiliparse", table["resiliparse"]["wall"] / 10))
    if "trafilatura" in table:
        budgets.append(("100x trafilatura", table["trafilatura"]["wall"] / 100))
    if "fastwarc" in table:
        budgets.append(("2.5x fastwarc parse", table["fastwarc"]["wall"] * 2.5))
    if budgets:
        print("  single-thread budget of each target: " + "; ".join(
            f"{name} {b:.2f} s = {b / parse:.2f}x parse-only" for name, b in budgets)
            + f"; today {t1['wall'] / parse:.2f}x")
print("peak RSS over 200 MiB on huge records and inputs: tests/memory.rs")
print("note: one run on a shared machine (other processes may be running); medians of few runs.")
PY
