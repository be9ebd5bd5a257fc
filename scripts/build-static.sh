#!/usr/bin/env bash
# Builds latsim for Linux with the Swift standard library linked in
# statically, and installs it into DIR (default: dist/latsim): the `latsim`
# binary and, beside it, `latsim_Scenarios.resources` (the built-in scenarios
# and device presets it reads at run time; keep the two together). Put DIR on
# PATH. The binary needs only the C and C++ runtimes of the machine (glibc,
# libstdc++), not a Swift toolchain.
#
#   scripts/build-static.sh                 # -> dist/latsim/latsim
#   scripts/build-static.sh "$HOME/.local/latsim" && export PATH="$HOME/.local/latsim:$PATH"
set -euo pipefail
cd "$(dirname "$0")/.."
dest="${1:-dist/latsim}"
case "$(uname -s)" in
  Linux) ;;
  *) echo "build-static.sh: --static-swift-stdlib links statically on Linux only; on $(uname -s) use swift build -c release" >&2; exit 2 ;;
esac
command -v swift >/dev/null || { echo "build-static.sh: no swift on PATH (a Swift 6.1 or later toolchain is needed to build)" >&2; exit 3; }

swift build -c release --static-swift-stdlib --product latsim
bin="$(swift build -c release --static-swift-stdlib --show-bin-path)"
[ -x "$bin/latsim" ] && [ -d "$bin/latsim_Scenarios.resources" ] || { echo "build-static.sh: the build left no $bin/latsim with its resources" >&2; exit 3; }

mkdir -p "$dest"
# replace what an earlier install left, the binary last
rm -rf "$dest/latsim_Scenarios.resources.new"
cp -R "$bin/latsim_Scenarios.resources" "$dest/latsim_Scenarios.resources.new"
rm -rf "$dest/latsim_Scenarios.resources"
mv "$dest/latsim_Scenarios.resources.new" "$dest/latsim_Scenarios.resources"
cp "$bin/latsim" "$dest/latsim.new"
mv "$dest/latsim.new" "$dest/latsim"
"$dest/latsim" --version >/dev/null
echo "installed $("$dest/latsim" --version) into $dest"
