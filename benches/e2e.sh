#!/usr/bin/env bash
# End-to-end throughput of `warcsift extract` beside `zcat` on the same WARC, in one run.
#
#   bash benches/e2e.sh [WARC] [RUNS]      (default: ../shared/warc/dev.warc.gz, 3 runs)
#
# Runs are interleaved (zcat, warcsift -t1, warcsift -t2, zcat, ...) so machine noise hits
# every contender alike; medians are reported, with ratios measured in this same run.
set -euo pipefail
cd "$(dirname "$0")/.."
warc=${1:-../shared/warc/dev.warc.gz}
runs=${2:-3}
algo=${WARCSIFT_ALGO:-}
[ -f "$warc" ] || { echo "SKIP: $warc not found (the shared folder is not beside the repository)"; exit 0; }
cargo build --release --quiet
bin=target/release/warcsift
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
declare -A times
for ((r = 0; r < runs; r++)); do
  t0=$EPOCHREALTIME; zcat "$warc" > /dev/null; t1=$EPOCHREALTIME
  times[zcat]+="$t0:$t1 "
  for t in 1 2; do
    t0=$EPOCHREALTIME
    $bin extract "$warc" -o "$out/t$t" -t "$t" -q ${algo:+-a "$algo"} 2> /dev/null
    t1=$EPOCHREALTIME
    times[t$t]+="$t0:$t1 "
  done
done
python3 - "$out/t1/stats.json" "$(stat -c %s "$warc")" "${times[zcat]}" "${times[t1]}" "${times[t2]}" "$algo" <<'PY'
import json, statistics, sys
stats = json.load(open(sys.argv[1]))
size_gz = int(sys.argv[2])
med = lambda s: statistics.median(float(b) - float(a) for a, b in (x.split(":") for x in s.split()))
z, t1, t2 = med(sys.argv[3]), med(sys.argv[4]), med(sys.argv[5])
algo = sys.argv[6] or "default"
recs, pages, mb = stats["records_read"], stats["extracted"], stats["bytes_in"] / 1e6
print(f"input: {mb:.0f} MB uncompressed ({size_gz/1e6:.0f} MB gzip), {recs} records, {pages} pages; algorithm: {algo}")
print(f"{'run':28} {'median s':>9} {'records/s':>10} {'pages/s':>9} {'MB/s':>7} {'x zcat':>7}")
for name, t in [("zcat (decompress only)", z), ("warcsift extract -t 1", t1), ("warcsift extract -t 2", t2)]:
    print(f"{name:28} {t:9.2f} {recs/t:10.0f} {pages/t:9.0f} {mb/t:7.1f} {t/z:7.2f}")
print(f"ratio warcsift -t1 / zcat: {t1/z:.2f}; speed-up -t2 / -t1: {t1/t2:.2f}")
PY
