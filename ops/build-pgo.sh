#!/usr/bin/env bash
# Profile-guided build of warcsift: build with instrumentation, run it over training WARCs,
# then build again with the measured profile. The result is the `dist` profile (fat LTO, one
# codegen unit) plus PGO, written to target/pgo/warcsift.
#
#   bash ops/build-pgo.sh [TRAINING.warc.gz ...]
#
# Training input defaults to samples/sample.warc.gz. A few hundred real pages train better:
# any WARC of the crawl you will process does (docs/speed.md trains on
# the cleaneval part of the devset and measures on pages outside it). The training runs use
# the default method, JSONL + zstd output, one worker, like the benchmark.
#
# Needs llvm-profdata of the same LLVM as rustc: `rustup component add llvm-tools` installs
# it into the toolchain (a system llvm-profdata of another LLVM version cannot read rustc's
# profiles). PGO changes code layout, inlining and branch order, never what the code
# computes: the script ends by checking that the final binary writes the same shards,
# byte for byte, as the instrumented one on every training WARC.
set -euo pipefail
cd "$(dirname "$0")/.."

training=("$@")
[ ${#training[@]} -gt 0 ] || training=(samples/sample.warc.gz)
for w in "${training[@]}"; do
  [ -f "$w" ] || { echo "build-pgo: training WARC $w not found" >&2; exit 1; }
done

sysroot=$(rustc --print sysroot)
host=$(rustc -vV | sed -n 's/^host: //p')
profdata="$sysroot/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
  echo "build-pgo: $profdata not found; run: rustup component add llvm-tools" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "build-pgo: 1/3 instrumented build (target/pgo-gen)"
RUSTFLAGS="${RUSTFLAGS:-} -Cprofile-generate=$work/raw" \
  cargo build --profile dist --locked --bin warcsift --target-dir target/pgo-gen

echo "build-pgo: 2/3 training on ${training[*]}"
for w in "${training[@]}"; do
  rm -rf "$work/out"
  target/pgo-gen/dist/warcsift extract "$w" -o "$work/out" -q -t 1
done
"$profdata" merge -o "$work/warcsift.profdata" "$work/raw"

echo "build-pgo: 3/3 optimized build (target/pgo-use)"
RUSTFLAGS="${RUSTFLAGS:-} -Cprofile-use=$work/warcsift.profdata" \
  cargo build --profile dist --locked --bin warcsift --target-dir target/pgo-use

for w in "${training[@]}"; do
  for b in pgo-gen pgo-use; do
    rm -rf "$work/$b"
    target/$b/dist/warcsift extract "$w" -o "$work/$b" -q -t 1 --compress none
    cat "$work/$b"/*.jsonl > "$work/$b.jsonl"
  done
  cmp "$work/pgo-gen.jsonl" "$work/pgo-use.jsonl" \
    || { echo "build-pgo: the PGO build's output differs on $w" >&2; exit 1; }
done
mkdir -p target/pgo
cp target/pgo-use/dist/warcsift target/pgo/warcsift
echo "build-pgo: done: target/pgo/warcsift (same shards as the plain build on the training WARCs)"
