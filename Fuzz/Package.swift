// swift-tools-version: 6.1
// libFuzzer over latsim's parsing and run paths (LatsimFuzz's oracle):
//
//   cd Fuzz
//   swift build -c release --scratch-path .build -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library
//   ./seed-corpus.sh
//   .build/release/latsim-fuzz corpus -max_total_time=600 -timeout=10 -rss_limit_mb=4096
//
// The first byte of an input chooses its kind (scenario YAML, --set lines,
// CSV, XML, baseline, part files, measured durations, output paths, answer
// lines, framestats dumps, Perfetto traces, step summaries); files from the committed corpus are read by the
// harness in that form once seed-corpus.sh has prefixed them.
import PackageDescription

let package = Package(
    name: "latsim-fuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "latsim", path: "..")],
    targets: [
        .executableTarget(name: "latsim-fuzz", dependencies: [.product(name: "LatsimFuzz", package: "latsim")]),
    ]
)
