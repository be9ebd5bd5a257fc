// swift-tools-version: 6.1
// The latsim benchmark suites: a package of its own, so that the root package
// never depends on ordo-one/benchmark (and its malloc interposer).
//
//   cd Benchmarks
//   swift package --scratch-path .build benchmark          # every suite
//   swift run -c release --scratch-path .build EngineFigures  # the figures the notes quote
import PackageDescription

let package = Package(
    name: "latsim-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "latsim", path: ".."),
        // The traits line is required: without it resolution asks for the
        // default RuntimeInterposer trait's dependency, which is not available here.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.29.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Workloads shared by the suites and EngineFigures.
        .target(
            name: "BenchSupport",
            dependencies: [
                .product(name: "SimKernel", package: "latsim"),
                .product(name: "TouchModel", package: "latsim"),
                .product(name: "FramePipeline", package: "latsim"),
            ]
        ),
        .executableTarget(
            name: "Engine",
            dependencies: [
                "BenchSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "FramePipeline", package: "latsim"),
                .product(name: "Scenarios", package: "latsim"),
                .product(name: "SimKernel", package: "latsim"),
                .product(name: "TouchModel", package: "latsim"),
                .product(name: "Experiments", package: "latsim"),
            ],
            path: "Benchmarks/Engine",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Predictors",
            dependencies: [
                "BenchSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TouchModel", package: "latsim"),
                .product(name: "PredictorProcess", package: "latsim"),
            ],
            path: "Benchmarks/Predictors",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Not a benchmark: prints events/s and real-time factor of the iOS and
        // Android pipelines, and the speed-up over the SimPy peers
        // (shared/peers/simpy_pipeline.py, simpy_android.py).
        .executableTarget(
            name: "EngineFigures",
            dependencies: [
                "BenchSupport",
                .product(name: "FramePipeline", package: "latsim"),
                .product(name: "Scenarios", package: "latsim"),
                .product(name: "SimKernel", package: "latsim"),
                .product(name: "TouchModel", package: "latsim"),
            ]
        ),
    ]
)
