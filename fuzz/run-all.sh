#!/usr/bin/env bash
# run-all.sh [SECONDS [TARGET...]]: runs every fuzz target (or those named) for SECONDS (default
# 600) in turn, from its committed seeds, and prints
# libFuzzer's last status line of each (executions, coverage, corpus). Needs cargo-fuzz; on a
# stable toolchain RUSTC_BOOTSTRAP=1 lets it use the sanitizer flags (fuzz/README.md).
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
shift || true
export RUSTC_BOOTSTRAP=1
targets=${*:-$(cargo fuzz list)}
cargo fuzz build -O >/dev/null
mkdir -p logs
for target in $targets; do
  mkdir -p "corpus/$target"
  cargo fuzz run -O "$target" "corpus/$target" "seeds/$target" -- \
    -max_total_time="$seconds" -rss_limit_mb=4096 -print_final_stats=1 \
    > "logs/$target.log" 2>&1 || { echo "$target: FAILED (fuzz/logs/$target.log)"; tail -30 "logs/$target.log"; exit 1; }
  echo "$target: $(grep -E '^#[0-9]+' "logs/$target.log" | tail -1)"
  grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "logs/$target.log" | tr '\n' ' '; echo
done
