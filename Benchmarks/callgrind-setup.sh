# Sourced by the callgrind scripts: what every count needs. NAME names the
# script in messages; BINARY is the latsim to measure (built when missing).
# Sets `work`, a temporary directory (removed on exit) holding a stripped
# copy of the binary as $work/latsim: valgrind cannot read this
# toolchain's debug information.
#   . Benchmarks/callgrind-setup.sh NAME BINARY
callgrind_name=$1
callgrind_binary=$2
# the same hash seed in every process, so the counts repeat exactly
export SWIFT_DETERMINISTIC_HASHING=1
command -v valgrind >/dev/null || { echo "$callgrind_name: valgrind is not installed" >&2; exit 3; }
if [ ! -x "$callgrind_binary" ]; then swift build -c release --product latsim >&2; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$callgrind_binary" "$work/latsim"
strip "$work/latsim"
