# Sourced by the benchmark scripts: their common options.
#   . Benchmarks/options.sh NAME TAKES "$@"
# NAME names the script in messages; TAKES is what may follow the options
# ("none", or a word for the usage line, e.g. "scenarios"). Sets `binary`
# (--binary PATH, default .build/release/latsim), `limits` (--check FILE,
# default none) and `arguments` (what follows the options: after `--` or
# the first word that is not an option). An unknown option, an option
# without its value, or arguments where none are taken exit 2.
options_name=$1
options_takes=$2
shift 2
binary=.build/release/latsim
limits=""
while [ $# -gt 0 ]; do
  case "$1" in
    --binary|--check)
      [ $# -ge 2 ] || { echo "$options_name: $1 needs a value" >&2; exit 2; }
      if [ "$1" = --binary ]; then binary=$2; else limits=$2; fi
      shift 2 ;;
    --) shift; break ;;
    -*) echo "$options_name: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
arguments=("$@")
if [ "$options_takes" = none ] && [ ${#arguments[@]} -gt 0 ]; then
  echo "$options_name: unknown argument ${arguments[0]} (it takes only --binary PATH and --check LIMITS)" >&2
  exit 2
fi
