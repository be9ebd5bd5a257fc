#!/usr/bin/env bash
# Installs latsim from this clone into PREFIX (default /usr/local):
#
#   PREFIX/lib/latsim/latsim                        the binary
#   PREFIX/lib/latsim/latsim_Scenarios.resources    the built-in scenarios and
#                                                   device presets it reads
#   PREFIX/bin/latsim -> ../lib/latsim/latsim       on PATH
#
# The binary finds its resources beside its real path, so the link on PATH
# works from any folder. On Linux the binary is built by
# scripts/build-static.sh (the Swift standard library linked in: it needs no
# Swift toolchain at run time and starts faster, Docs/Engine.md); on macOS by
# `swift build -c release`, whose runtime is the system's.
#
#   scripts/install.sh                       # sudo may be needed for /usr/local
#   scripts/install.sh "$HOME/.local"        # then: export PATH="$HOME/.local/bin:$PATH"
#   scripts/install.sh --from DIR PREFIX     # install a build that exists (DIR holds
#                                            # latsim and its resources), without building
#
# Exit status: 0 installed, 2 bad arguments, 3 the build or the copy failed.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: scripts/install.sh [--from BUILD-DIR] [PREFIX]   (PREFIX defaults to /usr/local)" >&2; exit 2; }
from=""
if [ "${1:-}" = "--from" ]; then
  [ $# -ge 2 ] || usage
  from="$2"; shift 2
fi
case "${1:-}" in -*) usage ;; esac
[ $# -le 1 ] || usage
prefix="${1:-/usr/local}"
[ -n "$prefix" ] || usage

if [ -n "$from" ]; then
  [ -x "$from/latsim" ] || { echo "install.sh: $from holds no latsim binary" >&2; exit 2; }
  shopt -s nullglob
  bundles=()
  for b in "$from"/latsim_*.resources "$from"/latsim_*.bundle; do
    case "$b" in *Tests.resources|*Tests.bundle) ;; *) bundles+=("$b") ;; esac  # not the test targets'
  done
  shopt -u nullglob
  [ ${#bundles[@]} -gt 0 ] || { echo "install.sh: $from holds no latsim_Scenarios resources beside the binary" >&2; exit 2; }
fi

# The prefix must be writable before anything is built.
mkdir -p "$prefix/bin" "$prefix/lib" 2>/dev/null && [ -w "$prefix/bin" ] && [ -w "$prefix/lib" ] || {
  echo "install.sh: cannot write into $prefix/bin and $prefix/lib; run it with sudo, or give a prefix of your own (scripts/install.sh \"\$HOME/.local\")" >&2
  exit 3
}

dest="$prefix/lib/latsim"
if [ -z "$from" ]; then
  case "$(uname -s)" in
    Linux)
      scripts/build-static.sh "$dest" >&2 || { echo "install.sh: the build failed" >&2; exit 3; }
      from="" ;;
    *)
      command -v swift >/dev/null || { echo "install.sh: no swift on PATH (a Swift 6.1 or later toolchain is needed to build)" >&2; exit 3; }
      swift build -c release --product latsim >&2 || { echo "install.sh: the build failed" >&2; exit 3; }
      from="$(swift build -c release --show-bin-path)" ;;
  esac
fi

if [ -n "$from" ]; then
  # the binary and every resource bundle SwiftPM put beside it
  shopt -s nullglob
  bundles=()
  for b in "$from"/latsim_*.resources "$from"/latsim_*.bundle; do
    case "$b" in *Tests.resources|*Tests.bundle) ;; *) bundles+=("$b") ;; esac
  done
  shopt -u nullglob
  [ ${#bundles[@]} -gt 0 ] || { echo "install.sh: the build left no latsim_Scenarios resources in $from" >&2; exit 3; }
  mkdir -p "$dest"
  # replace what an earlier install left, each piece whole, the binary last
  for b in "${bundles[@]}"; do
    name="$(basename "$b")"
    rm -rf "$dest/$name.new"
    cp -R "$b" "$dest/$name.new"
    rm -rf "$dest/$name"
    mv "$dest/$name.new" "$dest/$name"
  done
  cp "$from/latsim" "$dest/latsim.new"
  mv "$dest/latsim.new" "$dest/latsim"
fi

ln -sfn ../lib/latsim/latsim "$prefix/bin/latsim"
version="$("$prefix/bin/latsim" --version)" || { echo "install.sh: the installed $prefix/bin/latsim does not run" >&2; exit 3; }
echo "installed latsim $version: $prefix/bin/latsim (resources in $dest)"
