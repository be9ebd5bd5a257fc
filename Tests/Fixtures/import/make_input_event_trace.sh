#!/usr/bin/env bash
# Writes input_event_trace.perfetto-trace: Perfetto's own Android input-event
# test trace (input_event_trace.textproto from google/perfetto, vendored in
# ../shared/vendor/perfetto, with the winscope protos that define its
# extensions), encoded unchanged by protoc. Needs protoc (Debian:
# protobuf-compiler). Run once; the trace is committed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
vendor="${PERFETTO_VENDOR:-$repo/../shared/vendor/perfetto}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/protos/perfetto/trace" "$tmp/protos/third_party"
cp "$vendor/protos/perfetto/trace/perfetto_trace.proto" "$tmp/protos/perfetto/trace/"
cp -r "$vendor/protos/third_party/." "$tmp/protos/third_party/"
# the winscope protos import trace_packet.proto, which the merged file stands for
printf 'syntax = "proto2";\nimport public "protos/perfetto/trace/perfetto_trace.proto";\n' > "$tmp/protos/perfetto/trace/trace_packet.proto"
(cd "$tmp" && protoc -I. --encode=perfetto.protos.Trace protos/perfetto/trace/perfetto_trace.proto \
  protos/third_party/android/frameworks/native/tracing/winscope/frameworks_native_winscope.proto \
  < "$vendor/test/trace_processor/diff_tests/parser/android/input_event_trace.textproto" 2>/dev/null) \
  > "$here/input_event_trace.perfetto-trace"
