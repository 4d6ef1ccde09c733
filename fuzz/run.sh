#!/usr/bin/env bash
# Build the fuzz targets on the stable toolchain and run each for SECONDS
# (default 30), seeded from the shipped rules, the REPL scripts and the
# hostile cases. Fails on the first crash, leak, timeout or out-of-memory;
# the input that did it is left in fuzz/artifacts/TARGET/.
# Usage: fuzz/run.sh [SECONDS] [TARGET...]   (docs/reliability.md, "Fuzzing")
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-30}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(parse_check repl_line actions merge_parts options)
root=..
host=$(rustc -vV | sed -n 's/^host: //p')

# Coverage instrumentation and libFuzzer (linked by libfuzzer-sys), as
# cargo-fuzz does with `--sanitizer none`. `--target` keeps the flags off
# build scripts and proc macros.
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing"
cargo build --release --quiet --target "$host"
bin=target/$host/release

# Seed corpora, rebuilt each run (fuzz/seeds is not committed).
rm -rf seeds
mkdir -p seeds/parse_check seeds/repl_line seeds/actions seeds/merge_parts seeds/options
for f in "$root"/rules/*.rules "$root"/rules/*/*.rules "$root"/examples/*.rules \
  "$root"/tests/hostile/*.rules "$root"/tests/diagnostics/*.rules; do
  [ -f "$f" ] && cp "$f" "seeds/parse_check/$(echo "$f" | tr '/' '_')"
done
# repl_line: a byte picking the game (the games sorted by path, as
# fuzz/src/lib.rs loads them), then a REPL script of that game.
mapfile -t games < <(ls "$root"/examples/*.rules "$root"/rules/*.rules "$root"/rules/*/*.rules |
  sed "s|^$root/||" | sort)
for i in "${!games[@]}"; do
  name=$(basename "${games[$i]}" .rules)
  for s in "$root"/tests/scripts/"$name"/*.grail; do
    [ -f "$s" ] || continue
    { printf "\\x$(printf %02x "$i")"; cat "$s"; } >"seeds/repl_line/${name}_$(basename "$s")"
  done
done
for s in "$root"/tests/scripts/*.grail "$root"/tests/scripts/repl/*.grail; do
  [ -f "$s" ] && { printf 'T'; cat "$s"; } >"seeds/repl_line/any_$(basename "$s")"
done
for i in 1 2 3 4 5 6 7 8; do
  head -c $((64 * i)) /dev/urandom >"seeds/actions/random$i"
  head -c $((64 * i)) /dev/urandom >"seeds/options/random$i"
done
for f in "$root"/tests/hostile/data/*.part; do cp "$f" seeds/merge_parts/; done
p=$root/tests/hostile/data
if [ -f "$p/p1.part" ] && [ -f "$p/p2.part" ]; then
  { cat "$p/p1.part"; printf '\xff'; cat "$p/p2.part"; } >seeds/merge_parts/p1_p2
fi

status=0
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  log=artifacts/$t/last.log
  if "$bin/$t" "corpus/$t" "seeds/$t" -max_total_time="$secs" -timeout=10 \
    -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="artifacts/$t/" >"$log" 2>&1; then
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz $t: ${secs}s, ${execs:-?} executions, no crash (corpus $(ls "corpus/$t" | wc -l) inputs)"
  else
    echo "fuzz $t: FAILED, see fuzz/$log and fuzz/artifacts/$t/" >&2
    tail -40 "$log" >&2
    status=1
  fi
done
exit $status
