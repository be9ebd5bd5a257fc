// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "latsim",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "latsim", targets: ["latsim"]),
        .library(name: "SimKernel", targets: ["SimKernel"]),
        .library(name: "TouchModel", targets: ["TouchModel"]),
        .library(name: "FramePipeline", targets: ["FramePipeline"]),
        .library(name: "Scenarios", targets: ["Scenarios"]),
        .library(name: "Experiments", targets: ["Experiments"]),
        .library(name: "LatsimFuzz", targets: ["LatsimFuzz"]),
        .library(name: "LatsimOutput", targets: ["LatsimOutput"]),
        .library(name: "Measures", targets: ["Measures"]),
        .library(name: "Charts", targets: ["Charts"]),
        .library(name: "Traces", targets: ["Traces"]),
        .library(name: "Report", targets: ["Report"]),
        .library(name: "PredictorProcess", targets: ["PredictorProcess"]),
        .library(name: "LatsimGate", targets: ["LatsimGate"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // A 0.x package may break its API in any minor release: accept
        // patch releases of the minor version latsim is tested with only.
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", .upToNextMinor(from: "0.2.0")),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        // Perfetto's trace format (the runtime library only; the generated
        // code in Sources/PerfettoProtos is committed, see Protos/README.md)
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    ],
    targets: [
        .target(
            name: "SimKernel",
            dependencies: [.product(name: "Histogram", package: "hdrhistogram-swift")]
        ),
        .target(name: "TouchModel", dependencies: ["SimKernel"]),
        // The model only: the stages, one pipeline per platform, the measurement.
        .target(
            name: "FramePipeline",
            dependencies: [
                "SimKernel", "TouchModel",
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // The key table, settings, scenario files and the built-in scenarios.
        .target(
            name: "Scenarios",
            dependencies: ["FramePipeline", "SimKernel", "TouchModel", "Yams"],
            resources: [.copy("Builtin"), .copy("Devices")]
        ),
        // Writing outputs without destroying anything (atomic files, staging,
        // destinations, signal cleanup) and the text and JSON helpers.
        .target(name: "LatsimOutput", dependencies: ["SimKernel"]),
        // The results schema: every figure a run produces and every quantity
        // the summary JSON lists, declared once, and the outputs that are
        // views of them (summary JSON, figure tables, figures across seeds).
        .target(name: "Measures", dependencies: ["Scenarios", "FramePipeline", "SimKernel", "TouchModel", "LatsimOutput"]),
        // What is run on top of the model: sweeps, the parallel runner, the
        // prediction corpus, the talk's table.
        .target(name: "Experiments", dependencies: ["Measures", "Scenarios", "FramePipeline", "SimKernel", "TouchModel"]),
        // The messages of Perfetto's trace format that latsim writes and
        // reads, generated once from Protos/perfetto_trimmed.proto.
        .target(name: "PerfettoProtos", dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")]),
        // gnuplot charts and diagrams, each declared once in the registry.
        .target(name: "Charts", dependencies: ["LatsimOutput", "Measures", "FramePipeline", "Scenarios", "SimKernel", "TouchModel"]),
        // Device formats in and out: Chrome JSON and Perfetto traces, the
        // per-vsync CSV, and the Perfetto and framestats readers.
        .target(name: "Traces", dependencies: ["LatsimOutput", "FramePipeline", "Scenarios", "SimKernel", "PerfettoProtos"]),
        // `latsim report`: its experiments and the prose computed from their
        // findings, and the outputs of the experiments (sweeps, validation,
        // the talk's table, prediction studies).
        .target(name: "Report", dependencies: ["Charts", "Traces", "Experiments", "Measures", "LatsimOutput", "Scenarios", "FramePipeline", "SimKernel", "TouchModel"]),
        // The fuzz target: the command line's parsing and run paths with an
        // oracle, for the fuzz tests and the libFuzzer package in Fuzz/.
        .target(name: "LatsimFuzz", dependencies: ["Experiments", "Scenarios", "FramePipeline", "TouchModel", "SimKernel", "Measures", "Report", "Charts", "LatsimOutput", "PredictorProcess", "Traces"]),
        // A predictor in another process, any language, speaking the
        // predictor protocol (JSON Lines on stdin/stdout).
        .target(name: "PredictorProcess", dependencies: ["SimKernel", "TouchModel"]),
        // The prediction regression gate as a library call (`latsim regress`).
        .target(name: "LatsimGate", dependencies: ["Experiments", "LatsimOutput", "PredictorProcess", "Scenarios", "FramePipeline", "SimKernel", "TouchModel", "Yams"]),
        .executableTarget(
            name: "latsim",
            dependencies: [
                "Report", "Charts", "Traces", "Measures", "LatsimOutput", "Experiments", "Scenarios", "FramePipeline", "TouchModel", "SimKernel",
                "PredictorProcess", "LatsimGate",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "SimKernelTests", dependencies: ["SimKernel"]),
        .testTarget(name: "TouchModelTests", dependencies: ["TouchModel", "SimKernel"]),
        .testTarget(name: "FramePipelineTests", dependencies: ["FramePipeline", "Scenarios", "Experiments", "Measures", "TouchModel", "SimKernel"]),
        .testTarget(name: "MeasuresTests", dependencies: ["Measures", "Experiments", "Scenarios", "FramePipeline", "LatsimOutput"]),
        .testTarget(name: "ChartsTests", dependencies: ["Charts", "FramePipeline", "LatsimOutput", "SimKernel", "LatsimTestSupport"]),
        .testTarget(name: "TracesTests", dependencies: ["Traces", "LatsimOutput", "PerfettoProtos", "Scenarios", "FramePipeline", "SimKernel", "LatsimTestSupport"]),
        // Writing outputs without destroying anything: atomic files, staging,
        // destinations, the gnuplot driver, the report's staging.
        .testTarget(name: "OutputTests", dependencies: ["Report", "Charts", "Traces", "Measures", "LatsimOutput", "PerfettoProtos", "Experiments", "Scenarios", "FramePipeline", "SimKernel", "LatsimTestSupport"]),
        // Temporary directories and the gnuplot check, for the output modules' tests.
        .target(name: "LatsimTestSupport", dependencies: ["Charts"], path: "Tests/TestSupport"),
        .testTarget(name: "FuzzTests", dependencies: ["LatsimFuzz"], resources: [.copy("Corpus")]),
        .testTarget(name: "latsimTests", dependencies: ["latsim", "SimKernel", "Yams"]),
        .testTarget(name: "PredictorProcessTests", dependencies: ["PredictorProcess", "TouchModel", "SimKernel"]),
        .testTarget(name: "LatsimGateTests", dependencies: ["LatsimGate", "Experiments", "Measures", "TouchModel", "SimKernel"]),
    ]
)
