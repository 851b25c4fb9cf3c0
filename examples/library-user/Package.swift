// swift-tools-version:6.1
import PackageDescription

// A package that uses navbench as a library (docs/library.md). Each executable names the
// navbench products whose modules it imports; none comes in through another product.
let package = Package(
    name: "library-user",
    dependencies: [
        // By path: a navbench checkout (here the one this folder is in).
        .package(name: "navbench", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "InMemoryAPE",
            dependencies: [
                .product(name: "NavCore", package: "navbench"),
                .product(name: "NavGeometry", package: "navbench"),
                .product(name: "NavMetrics", package: "navbench"),
                .product(name: "NavReport", package: "navbench"),
            ]),
        .executableTarget(
            name: "FilterSignal",
            dependencies: [
                .product(name: "NavSignal", package: "navbench"),
                .product(name: "NavSpectral", package: "navbench"),
            ]),
        .executableTarget(
            name: "ReadTrace",
            dependencies: [
                .product(name: "NavCore", package: "navbench"),
                .product(name: "NavIO", package: "navbench"),
            ]),
        .executableTarget(
            name: "GuidanceReplay",
            dependencies: [
                .product(name: "NavGuidance", package: "navbench"),
                .product(name: "NavIO", package: "navbench"),
                .product(name: "NavPipeline", package: "navbench"),
            ]),
        .executableTarget(
            name: "ClosedLoopWalk",
            dependencies: [
                .product(name: "NavIO", package: "navbench"),
                .product(name: "NavPipeline", package: "navbench"),
                .product(name: "NavSim", package: "navbench"),
                .product(name: "NavSynth", package: "navbench"),
            ]),
    ]
)
