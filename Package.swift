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
        .library(name: "LatencyReport", targets: ["LatencyReport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.1.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    ],
    targets: [
        .target(
            name: "SimKernel",
            dependencies: [.product(name: "Histogram", package: "hdrhistogram-swift")]
        ),
        .target(name: "TouchModel", dependencies: ["SimKernel"]),
        .target(
            name: "FramePipeline",
            dependencies: [
                "SimKernel", "TouchModel", "Yams",
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            resources: [.copy("Scenarios")]
        ),
        .target(name: "LatencyReport", dependencies: ["FramePipeline"]),
        .executableTarget(
            name: "latsim",
            dependencies: [
                "LatencyReport", "FramePipeline", "TouchModel", "SimKernel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "SimKernelTests", dependencies: ["SimKernel"]),
        .testTarget(name: "TouchModelTests", dependencies: ["TouchModel"]),
        .testTarget(name: "FramePipelineTests", dependencies: ["FramePipeline"]),
        .testTarget(name: "LatencyReportTests", dependencies: ["LatencyReport"]),
        .testTarget(name: "latsimTests", dependencies: ["latsim"]),
    ]
)
