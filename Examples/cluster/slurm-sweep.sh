#!/usr/bin/env bash
# Runs a latsim sweep as a Slurm job array of N shards and merges the parts.
#
#   slurm-sweep.sh N OUTDIR -- SWEEP-ARGUMENTS...
#   slurm-sweep.sh 8 out -- ios9-coalescing-120hz --vary gpu.render=1ms...20ms:0.5ms \
#                               --vary app.handler=1ms...25ms:1ms --seeds 4
#
# Each array task runs `latsim sweep SWEEP-ARGUMENTS --shard auto --part
# OUTDIR/part-ID.json` (latsim takes its shard from SLURM_ARRAY_TASK_ID,
# _MIN, _MAX and _COUNT of the array 0-(N-1); to re-run shard I alone:
# LATSIM_SHARD_COUNT=N sbatch --array=I OUTDIR/shard.sh); sbatch waits for
# the whole array, then the parts are merged into OUTDIR/sweep.csv, byte for byte what one machine gives, and
# the sweep's table is printed. OUTDIR must be on a file system every node
# sees. LATSIM names the latsim binary (default: latsim on PATH);
# SBATCH_ARGS adds sbatch options (a partition, a time limit); CPUS is each
# task's CPUs (default 1: --cpus-per-task, and latsim's --jobs in the task).
set -euo pipefail
if [ $# -lt 3 ] || [ "$3" != "--" ]; then
  echo "usage: $0 N OUTDIR -- SWEEP-ARGUMENTS..." >&2; exit 2
fi
n=$1 out=$2; shift 3
case "$n" in ''|*[!0-9]*) echo "$0: N must be a whole number, not '$n'" >&2; exit 2 ;; esac
[ "$n" -ge 1 ] || { echo "$0: N must be at least 1" >&2; exit 2; }
cpus=${CPUS:-1}
case "$cpus" in ''|*[!0-9]*|0) echo "$0: CPUS must be a whole number above 0, not '$cpus'" >&2; exit 2 ;; esac
latsim=${LATSIM:-$(command -v latsim || true)}
[ -x "$latsim" ] || { echo "$0: no latsim binary (set LATSIM)" >&2; exit 2; }
latsim=$(cd "$(dirname "$latsim")" && pwd)/$(basename "$latsim")
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/part-*.json

# the job script, with the sweep's arguments quoted once
{
  echo '#!/usr/bin/env bash'
  echo 'set -euo pipefail'
  printf 'exec %q sweep' "$latsim"
  printf ' %q' "$@"
  printf ' --jobs %q' "$cpus"
  printf ' --shard auto --part %q%s\n' "$out/part-" '"${SLURM_ARRAY_TASK_ID}.json"'
} > "$out/shard.sh"
chmod +x "$out/shard.sh"

# shellcheck disable=SC2086
sbatch --array="0-$((n - 1))" --cpus-per-task="$cpus" --wait --job-name=latsim-sweep --chdir="$PWD" \
  --output="$out/slurm-%A_%a.out" ${SBATCH_ARGS:-} "$out/shard.sh" >/dev/null
"$latsim" sweep merge "$out"/part-*.json --csv "$out/sweep.csv"
