// swift-tools-version:6.1
import PackageDescription

// Layers, one way only:
//   NavCore (value types, no I/O)
//     ← NavSynth (deterministic session generator, pure)
//     ← NavGeometry (RDP, alignment, registration, association; pure)
//       ← NavMetrics (APE, RPE, drift, positioning scores; pure)
//       ← NavIO (HDF5 through CHDF5, trace format v1, validate/inspect, trajectory text formats)
//         ← NavReport (reports over files, trajectory evaluation pipeline)
//           ← navbench (thin CLI)
let package = Package(
    name: "navbench",
    products: [
        .executable(name: "navbench", targets: ["navbench"]),
        .library(name: "NavCore", targets: ["NavCore"]),
        .library(name: "NavIO", targets: ["NavIO"]),
        .library(name: "NavGeometry", targets: ["NavGeometry"]),
        .library(name: "NavMetrics", targets: ["NavMetrics"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        .systemLibrary(
            name: "CHDF5",
            pkgConfig: "hdf5-serial",
            providers: [.apt(["libhdf5-dev"])]
        ),
        .target(
            name: "NavCore",
            dependencies: [.product(name: "RealModule", package: "swift-numerics")]
        ),
        .target(name: "NavSynth", dependencies: ["NavCore"]),
        .target(
            name: "NavGeometry",
            dependencies: ["NavCore", .product(name: "RealModule", package: "swift-numerics")]
        ),
        .target(
            name: "NavMetrics",
            dependencies: ["NavCore", "NavGeometry", .product(name: "RealModule", package: "swift-numerics")]
        ),
        .target(
            name: "NavIO",
            dependencies: [
                "NavCore", "CHDF5",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(name: "NavReport", dependencies: ["NavCore", "NavIO", "NavSynth", "NavGeometry", "NavMetrics"]),
        .executableTarget(
            name: "navbench",
            dependencies: [
                "NavCore", "NavIO", "NavSynth", "NavReport", "NavGeometry", "NavMetrics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "NavCoreTests",
            dependencies: ["NavCore", .product(name: "RealModule", package: "swift-numerics")]
        ),
        .testTarget(name: "NavSynthTests", dependencies: ["NavCore", "NavSynth"]),
        .testTarget(
            name: "NavIOTests",
            dependencies: ["NavCore", "NavIO", "NavSynth"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "NavGeometryTests",
            dependencies: ["NavCore", "NavGeometry", .product(name: "RealModule", package: "swift-numerics")],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "NavMetricsTests",
            dependencies: ["NavCore", "NavGeometry", "NavMetrics", "NavIO"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "NavReportTests", dependencies: ["NavCore", "NavGeometry", "NavMetrics", "NavIO", "NavReport"]),
        .testTarget(name: "CLITests", dependencies: ["navbench"]),
    ]
)
