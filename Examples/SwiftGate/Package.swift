// swift-tools-version: 6.1
// A Swift package that gates its own touch predictor with latsim's
// prediction regression gate (LatsimGate), depending on latsim by path.
//
//   cd Examples/SwiftGate
//   swift run PredictionGateExample record    # once: writes prediction-baseline.json
//   swift run PredictionGateExample check     # in CI: exit 1 on a regression
import PackageDescription

let package = Package(
    name: "SwiftGate",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "latsim", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "PredictionGateExample",
            dependencies: [
                .product(name: "LatsimGate", package: "latsim"),
                .product(name: "TouchModel", package: "latsim"),
                .product(name: "SimKernel", package: "latsim"),
            ]
        ),
    ]
)
