#!/usr/bin/env bash
# A sweep's own costs, counted by callgrind (deterministic, unlike wall
# clocks), with one thread:
#   point   the fixed cost of a grid point: a 2,000-point sweep of 10 ms runs
#           minus a 200-point one, divided by the 1,800 points between (the
#           model's few frames of work included, start-up cancelled)
#   shard   a 100-point shard (0/1000) of a 100,000-point grid against the
#           same 100 points run unsharded, in percent (100: the same cost)
#
#   Benchmarks/callgrind-sweep.sh [--binary PATH] [--check LIMITS]
#
# --binary   the latsim to measure (default .build/release/latsim; built if missing)
# --check    a limits file ("point LIMIT", "shard LIMIT" per line, # comments):
#            exit 1 when a figure is above its limit
# valgrind cannot read this toolchain's debug information: a stripped copy
# of the binary is measured.
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/options.sh callgrind-sweep none "$@"
. Benchmarks/callgrind-setup.sh callgrind-sweep "$binary"

# instructions of one latsim command (callgrind's "Collected" total)
instructions() {
  (cd "$work" && valgrind --tool=callgrind --callgrind-out-file=/dev/null ./latsim "$@" 2>&1 >/dev/null | awk '/Collected/ {print $NF}')
}
scenario=ios9-coalescing-120hz
i2000=$(instructions sweep $scenario --vary gpu.render=1ms...20.99ms:0.01ms --duration 10ms --jobs 1 --csv out.csv)
i200=$(instructions sweep $scenario --vary gpu.render=1ms...2.99ms:0.01ms --duration 10ms --jobs 1 --csv out.csv)
point=$(( (i2000 - i200) / 1800 ))
shard=$(instructions sweep $scenario --vary gpu.render=1ms...100.999ms:0.001ms --duration 10ms --jobs 1 --shard 0/1000 --part part.json)
same=$(instructions sweep $scenario --vary gpu.render=1ms...1.099ms:0.001ms --duration 10ms --jobs 1 --csv out.csv)
ratio=$(( shard * 100 / same ))
printf '%-8s %14s\n' figure value
printf '%-8s %14s   instructions per grid point (2,000 - 200 points of 10 ms)\n' point "$point"
printf '%-8s %14s   %% of the same 100 points unsharded (%s / %s instructions)\n' shard "$ratio" "$shard" "$same"

if [ -n "$limits" ]; then
  . Benchmarks/check-limits.sh
  check_limits callgrind-sweep "$limits" point=$point shard=$ratio
fi
