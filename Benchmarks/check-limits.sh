# Sourced by the benchmark scripts: checks figures against a limits file
# ("NAME LIMIT" per line, # comments). Exits 1 when a figure is above its
# limit, 2 for a name the script does not measure.
#   . Benchmarks/check-limits.sh
#   check_limits SCRIPT LIMITS NAME=VALUE...
check_limits() {
  local script=$1 limits=$2 failed=0 name limit value pair
  shift 2
  while read -r name limit _; do
    case "$name" in ''|\#*) continue ;; esac
    value=""
    for pair in "$@"; do
      if [ "${pair%%=*}" = "$name" ]; then value=${pair#*=}; fi
    done
    if [ -z "$value" ]; then echo "$script: unknown figure $name in $limits" >&2; exit 2; fi
    if [ "$value" -gt "$limit" ]; then
      echo "$script: $name is $value, above its limit $limit ($limits)" >&2
      failed=1
    fi
  done < "$limits"
  exit $failed
}
