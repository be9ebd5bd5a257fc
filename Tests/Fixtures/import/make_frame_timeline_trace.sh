#!/usr/bin/env bash
# Writes frame_timeline_events.perfetto-trace: Perfetto's own FrameTimeline
# test trace (frame_timeline_events.py from google/perfetto, vendored in
# ../shared/vendor/perfetto), run unchanged on synth/synth_common.py, which
# encodes its packets with Protos/perfetto_trimmed.proto. Needs protoc and
# Python's protobuf package. Run once; the trace is committed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
vector="${PERFETTO_VENDOR:-$repo/../shared/vendor/perfetto}/test/trace_processor/diff_tests/parser/graphics/frame_timeline_events.py"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
protoc --proto_path="$repo/Protos" --descriptor_set_out="$tmp/trace.desc" "$repo/Protos/perfetto_trimmed.proto"
LATSIM_TRACE_DESCRIPTOR="$tmp/trace.desc" PYTHONPATH="$here/synth" python3 "$vector" > "$here/frame_timeline_events.perfetto-trace"
