#!/usr/bin/env bash
# Writes every output a refactoring must keep byte-identical into DIR, using
# the latsim binary BIN: each built-in scenario's JSON (--stable), per-frame
# CSV, Chrome and Perfetto traces and budget tables; device presets; sweeps
# (one axis, two axes, seeds, shards merged); compare in every format; the
# talk's table; validate; predict; the gate; the report. Compare two builds
# with `diff -r DIR1 DIR2`.
#
#   scripts/golden-outputs.sh BIN DIR
set -uo pipefail
BIN=$(realpath "$1"); OUT=$2
mkdir -p "$OUT"; OUT=$(realpath "$OUT")
REPO=$(cd "$(dirname "$0")/.." && pwd)
cd "$OUT"   # outputs are named relative to DIR, so messages read the same in any DIR
ln -sfn "$REPO/Reports" Reports; ln -sfn "$REPO/Examples" Examples
run() { # name, then the command's arguments
  local name=$1; shift
  "$BIN" "$@" >"$name.out" 2>"$name.err"; echo "exit $?" >>"$name.out"
  # wall clocks and progress vary between runs: drop or blank them
  sed -i -E -e '/(wall|took|elapsed|seconds of wall|events\/s|runs done)/d' \
    -e "s|$OUT|OUT|g" -e 's/[0-9]+\.[0-9]+ s\)/N s)/g' -e 's/ in [0-9]+\.[0-9]+ s/ in N s/g' "$name.err" "$name.out"
}
names=$("$BIN" list | awk 'NR>2 {print $1}')
for s in $names; do
  run "run-$s" run "$s" --duration 20s --stable --json "run-$s.json" --frames "frames-$s.csv" --budget
  run "trace-$s" run "$s" --duration 1s --stable --trace "trace-$s.json"
  run "ptrace-$s" run "$s" --duration 1s --stable --trace "trace-$s.perfetto-trace"
  run "seeds-$s" run "$s" --duration 5s --seeds 3 --stable --json "seeds-$s.json"
  run "show-$s" scenario show "$s" --resolved
done
for d in $("$BIN" devices | awk 'NR>2 && NF>3 {print $1}'); do
  run "device-$d" devices --show "$d"
  run "walt-$d" run walt-screen --device "$d" --duration 10s --stable --json "walt-$d.json"
done
run keys keys
run figures figures --markdown
run figures-json figures --json -
run table table --json "table.json"
run validate validate --json "validate.json"
run sweep1 sweep ios8 --vary gpu.render=2ms...20ms:1ms --csv "sweep1.csv" --json "sweep1.json"
run sweep2 sweep ios9-low-latency --vary device.scanHz=60,120,240 --vary app.handler=2ms...20ms:2ms --csv "sweep2.csv" --duration 5s
run sweep-android sweep android-default --vary gpu.render=2ms...20ms:2ms --csv "sweep-android.csv" --duration 5s
run sweep-seeds sweep ios9-low-latency --vary gpu.render=2ms...8ms:2ms --set 'app.handler=normal(4ms,1ms)' --seeds 4 --csv "sweep-seeds.csv" --json "sweep-seeds.json" --duration 5s
for i in 0 1 2; do run "shard$i" sweep ios8 --vary gpu.render=2ms...20ms:1ms --shard $i/3 --part "part$i.json"; done
run merge sweep merge "part0.json" "part1.json" "part2.json" --csv "merge.csv" --json "merge.json"
for f in table markdown csv json; do
  run "compare-$f" compare ios9-low-latency ios9-coalescing-120hz --format $f --seeds 3
  run "compare-android-$f" compare android-default android-pixel4 --format $f --seeds 3
done
run compare-set compare ios8 --a-set gpu.render=4ms --b-set gpu.render=9ms --seeds 3
run predict predict --predictor linearFirst,kalman --scorecard latsim,chromium,android
run regress regress --baseline Reports/prediction-baseline.json
run report report --out "report" --duration 5s
rm -f "$OUT"/report/*.png "$OUT"/report/*.svg  # gnuplot's own bytes; the .dat and .gp are compared
# wall seconds recorded in JSON files
find . -name '*.json' -type f -exec sed -i -E 's/"wallSeconds":[-0-9.e]+/"wallSeconds":0/g' {} +
rm -f Reports Examples
exit 0
