#!/usr/bin/env bash
# The peak memory (resident set, KB, from getrusage of the child) of the
# outputs that once grew faster than the work, an hour of android-default:
#   frames   run --frames (written as the run goes)
#   trace    run --trace t.perfetto-trace
#   json     run --trace t.json
#   both     run --trace t.perfetto-trace --frames f.csv (one run, both as it goes)
#   import   import of the Perfetto trace (308 MB)
# and of a sweep whose outputs once held every row to the end:
#   sweep    a 100,000-point sweep writing its CSV, long CSV and JSON (rows
#            written as they complete) and its table, on one thread: with
#            two, the allocator's per-thread arenas keep freed memory and
#            the peak varies from run to run (54-90 MB measured), which is
#            not what this gates
#
#   Benchmarks/peak-memory.sh [--binary PATH] [--check LIMITS]
#
# --binary   the latsim to measure (default .build/release/latsim; built if missing)
# --check    a limits file ("NAME LIMIT_KB" per line, # comments): exit 1
#            when a figure is above its limit
# Peak memory is not deterministic as instructions are, but it moves by a
# few percent between runs: the limits leave a margin. About a minute and a
# half, 300 MB of memory and 1.5 GB of disk (the traces and their spill files).
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/options.sh peak-memory none "$@"
command -v python3 >/dev/null || { echo "peak-memory: python3 is not installed" >&2; exit 3; }
if [ ! -x "$binary" ]; then swift build -c release --product latsim >&2; fi
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the peak resident set of one command, in KB (it must succeed)
peak() {
  python3 -c '
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}
frames=$(peak "$binary" run android-default --duration 3600s --frames "$work/f.csv")
trace=$(peak "$binary" run android-default --duration 3600s --trace "$work/t.perfetto-trace")
json=$(peak "$binary" run android-default --duration 3600s --trace "$work/t.json")
rm -f "$work/t.json"
both=$(peak "$binary" run android-default --duration 3600s --trace "$work/b.perfetto-trace" --frames "$work/f.csv")
rm -f "$work/b.perfetto-trace" "$work/f.csv"
import=$(peak "$binary" import "$work/t.perfetto-trace" --out "$work/device.yaml")
sweep=$(peak "$binary" sweep ios9-coalescing-120hz --vary gpu.render=1ms...1000.99ms:0.01ms --duration 10ms --jobs 1 \
  --csv "$work/s.csv" --csv-long "$work/l.csv" --json "$work/s.json")
printf '%-8s %12s\n' figure "peak KB"
printf '%-8s %12s   run android-default --duration 3600s --frames\n' frames "$frames"
printf '%-8s %12s   run android-default --duration 3600s --trace t.perfetto-trace\n' trace "$trace"
printf '%-8s %12s   run android-default --duration 3600s --trace t.json\n' json "$json"
printf '%-8s %12s   run android-default --duration 3600s --trace t.perfetto-trace --frames f.csv\n' both "$both"
printf '%-8s %12s   import t.perfetto-trace (%s bytes)\n' import "$import" "$(stat -c %s "$work/t.perfetto-trace")"
printf '%-8s %12s   sweep of 100,000 points at --jobs 1 (--csv, --csv-long, --json and the table)\n' sweep "$sweep"

if [ -n "$limits" ]; then
  . Benchmarks/check-limits.sh
  check_limits peak-memory "$limits" frames=$frames trace=$trace json=$json both=$both import=$import sweep=$sweep
fi
