#!/usr/bin/env bash
# Instructions per displayed frame, measured with callgrind (deterministic,
# unlike wall clocks): a 60 s run minus a 6 s run of a scenario, divided by
# the frames presented in the 54 s between, so start-up and the report's
# printing cancel out.
#
#   Benchmarks/callgrind-per-frame.sh [--binary PATH] [--check LIMITS] [SCENARIO...]
#
# --binary   the latsim to measure (default .build/release/latsim; built if missing)
# --check    a limits file ("scenario limit" per line, # comments): exit 1
#            when a scenario's figure is above its limit
# Scenarios default to the limits file's, else the three of the README.
# valgrind cannot read this toolchain's debug information: a stripped copy
# of the binary is measured.
set -euo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/options.sh callgrind-per-frame scenarios "$@"
scenarios=("${arguments[@]}")
if [ ${#scenarios[@]} -eq 0 ]; then
  if [ -n "$limits" ]; then
    mapfile -t scenarios < <(grep -v '^[[:space:]]*\(#\|$\)' "$limits" | awk '{print $1}')
  else
    scenarios=(ios9-coalescing-120hz android-default ios9-prediction)
  fi
fi
. Benchmarks/callgrind-setup.sh callgrind-per-frame "$binary"

# instructions of one run (callgrind's "Collected" total)
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/latsim" run "$1" --duration "$2" --json "$work/out.json" --stable \
    2>&1 >/dev/null | awk '/Collected/ {print $NF}'
}
# frames presented in one run
frames() {
  "$work/latsim" run "$1" --duration "$2" --json - --stable | python3 -c 'import json,sys; print(json.load(sys.stdin)["runs"][0]["display"]["framesPresented"])'
}

failed=0
printf '%-26s %14s %10s %10s\n' scenario instructions frames per-frame
for s in "${scenarios[@]}"; do
  i60=$(instructions "$s" 60s); i6=$(instructions "$s" 6s)
  f60=$(frames "$s" 60s); f6=$(frames "$s" 6s)
  per=$(( (i60 - i6) / (f60 - f6) ))
  line=$(printf '%-26s %14d %10d %10d' "$s" $((i60 - i6)) $((f60 - f6)) "$per")
  if [ -n "$limits" ]; then
    limit=$(awk -v s="$s" '$1 == s {print $2}' "$limits")
    if [ -z "$limit" ]; then
      echo "$line  no limit in $limits"; failed=1
    elif [ "$per" -gt "$limit" ]; then
      echo "$line  ABOVE the limit $limit"; failed=1
    else
      echo "$line  limit $limit"
    fi
  else
    echo "$line"
  fi
done
exit $failed
