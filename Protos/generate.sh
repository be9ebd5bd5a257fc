#!/usr/bin/env bash
# Regenerates Sources/PerfettoProtos/perfetto_trimmed.pb.swift from
# Protos/perfetto_trimmed.proto. Needs protoc (Debian: protobuf-compiler) and
# protoc-gen-swift built from apple/swift-protobuf 1.39.0 (the version
# Package.swift names), e.g.
#   git clone https://github.com/apple/swift-protobuf /tmp/swift-protobuf
#   (cd /tmp/swift-protobuf && git checkout 1.39.0 && swift build --product protoc-gen-swift)
#   PROTOC_GEN_SWIFT=/tmp/swift-protobuf/.build/debug/protoc-gen-swift Protos/generate.sh
# CI does not run this: the generated file is committed.
set -euo pipefail
cd "$(dirname "$0")/.."
plugin="${PROTOC_GEN_SWIFT:-$(command -v protoc-gen-swift)}"
protoc --plugin=protoc-gen-swift="$plugin" \
  --swift_opt=Visibility=Public --swift_opt=FileNaming=DropPath \
  --proto_path=Protos --swift_out=Sources/PerfettoProtos \
  Protos/perfetto_trimmed.proto
