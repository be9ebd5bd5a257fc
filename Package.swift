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
        .library(name: "LatencyReport", targets: ["LatencyReport"]),
        .library(name: "PredictorProcess", targets: ["PredictorProcess"]),
        .library(name: "LatsimGate", targets: ["LatsimGate"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.1.0"),
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
        // What is run on top of the model: sweeps, the parallel runner, the
        // prediction corpus, the talk's table.
        .target(name: "Experiments", dependencies: ["Scenarios", "FramePipeline", "SimKernel", "TouchModel"]),
        // Writing outputs without destroying anything (atomic files, staging,
        // destinations, signal cleanup) and the text and JSON helpers.
        .target(name: "LatsimOutput", dependencies: ["SimKernel"]),
        // The messages of Perfetto's trace format that latsim writes and
        // reads, generated once from Protos/perfetto_trimmed.proto.
        .target(name: "PerfettoProtos", dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")]),
        .target(name: "LatencyReport", dependencies: ["LatsimOutput", "Experiments", "Scenarios", "FramePipeline", "PerfettoProtos"]),
        // The fuzz target: the command line's parsing and run paths with an
        // oracle, for the fuzz tests and the libFuzzer package in Fuzz/.
        .target(name: "LatsimFuzz", dependencies: ["Experiments", "Scenarios", "FramePipeline", "TouchModel", "SimKernel", "LatencyReport", "PredictorProcess"]),
        // A predictor in another process, any language, speaking the
        // predictor protocol (JSON Lines on stdin/stdout).
        .target(name: "PredictorProcess", dependencies: ["SimKernel", "TouchModel"]),
        // The prediction regression gate as a library call (`latsim regress`).
        .target(name: "LatsimGate", dependencies: ["Experiments", "LatsimOutput", "PredictorProcess", "Scenarios", "FramePipeline", "SimKernel", "TouchModel", "Yams"]),
        .executableTarget(
            name: "latsim",
            dependencies: [
                "LatencyReport", "Experiments", "Scenarios", "FramePipeline", "TouchModel", "SimKernel", "PredictorProcess", "LatsimGate",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "SimKernelTests", dependencies: ["SimKernel"]),
        .testTarget(name: "TouchModelTests", dependencies: ["TouchModel"]),
        .testTarget(name: "FramePipelineTests", dependencies: ["FramePipeline", "Scenarios", "Experiments"]),
        .testTarget(name: "LatencyReportTests", dependencies: ["LatencyReport", "LatsimOutput", "PerfettoProtos", "Experiments", "Scenarios", "FramePipeline"]),
        .testTarget(name: "FuzzTests", dependencies: ["LatsimFuzz"], resources: [.copy("Corpus")]),
        .testTarget(name: "latsimTests", dependencies: ["latsim", "SimKernel", "Yams"]),
        .testTarget(name: "PredictorProcessTests", dependencies: ["PredictorProcess", "TouchModel", "SimKernel"]),
        .testTarget(name: "LatsimGateTests", dependencies: ["LatsimGate", "Experiments", "TouchModel", "SimKernel"]),
    ]
)
