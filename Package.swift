// swift-tools-version:6.1
import PackageDescription

// Layers, one way only (scripts/check_layers.py checks every import against this; docs/architecture.md):
//   NavCore (value types, shared maths, no I/O)
//     ← NavSignal, NavSynth, NavGeometry (pure algorithms)   NavSpectral (FFT through CFFTW)
//       NavStatistics (bootstrap, Wilson, Wilcoxon, permutation, Hodges–Lehmann, Holm; pure)
//       NavRosbag (ROS 1 bag / MCAP records and messages through CBZip2, CLZ4, CZstd; read by NavIO, NavImport)
//       ← NavGuidance, NavAids (guidance model, calibration and proximity; pure)
//         ← NavMetrics (APE, RPE, drift, positioning scores; pure)   NavSim (closed-loop walkers; pure)
//           ← NavIO (HDF5 through CHDF5, CSV, trace format v1, validate/inspect, trajectory text formats)
//             ← NavImport (importers and exporters of other formats; YAML mappings through Yams)
//               ← NavReport (reports over files, trajectory evaluation pipeline)
//                 ← NavPipeline (jobs over files: filters, guidance replay, experiments)
//                   ← navbench (the CLI; docs/architecture.md lists what it still does beyond wiring)
// NavProcessPolicy (glibc malloc tuning) is the executables' alone: no library imports it.
// The closed-loop walker's inner loop (NavSim over NavGuidance, NavSynth, NavCore) runs ~10× slower
// unoptimised, so these modules are optimised in debug builds too (Swift's -O keeps IEEE semantics:
// no fast-math, no FMA contraction, so every number equals the -Onone build's). `make test`, the
// gate, the notebook and the demo use the one -c release build (Makefile: BUILD_FLAGS).
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "navbench",
    products: [
        // Every library module is a product: a package depending on navbench names the modules
        // it imports (docs/library.md; scripts/check_library_example.sh builds an example).
        .executable(name: "navbench", targets: ["navbench"]),
        .library(name: "NavCore", targets: ["NavCore"]),
        .library(name: "NavSignal", targets: ["NavSignal"]),
        .library(name: "NavSpectral", targets: ["NavSpectral"]),
        .library(name: "NavGeometry", targets: ["NavGeometry"]),
        .library(name: "NavSynth", targets: ["NavSynth"]),
        .library(name: "NavStatistics", targets: ["NavStatistics"]),
        .library(name: "NavRosbag", targets: ["NavRosbag"]),
        .library(name: "NavGuidance", targets: ["NavGuidance"]),
        .library(name: "NavAids", targets: ["NavAids"]),
        .library(name: "NavSim", targets: ["NavSim"]),
        .library(name: "NavMetrics", targets: ["NavMetrics"]),
        .library(name: "NavIO", targets: ["NavIO"]),
        .library(name: "NavImport", targets: ["NavImport"]),
        .library(name: "NavReport", targets: ["NavReport"]),
        .library(name: "NavPipeline", targets: ["NavPipeline"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CHDF5",
            pkgConfig: "hdf5-serial",
            providers: [.apt(["libhdf5-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CFFTW",
            pkgConfig: "fftw3",
            providers: [.apt(["libfftw3-dev"])]
        ),
        .systemLibrary(name: "CBZip2", providers: [.apt(["libbz2-dev"])]),
        .systemLibrary(name: "CLZ4", pkgConfig: "liblz4", providers: [.apt(["liblz4-dev"])]),
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        // SHA-256 only: OpenSSL's libcrypto (Debian), not swift-crypto, whose 362 BoringSSL files took
        // 62 s of a cold build on 2 cores for this one function (docs/architecture.md).
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // The results store: SQLite's C API (Debian's libsqlite3), not GRDB, whose 150 s of CPU were an eighth of a
        // cold build on 2 cores for one table schema and a dozen statements (docs/architecture.md).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(
            name: "NavCore",
            dependencies: [.product(name: "RealModule", package: "swift-numerics")],
            swiftSettings: optimisedInDebug
        ),
        .target(
            name: "NavSynth",
            dependencies: ["NavCore", .product(name: "RealModule", package: "swift-numerics")],
            swiftSettings: optimisedInDebug
        ),
        .target(
            name: "NavStatistics",
            dependencies: ["NavCore", .product(name: "RealModule", package: "swift-numerics")]
        ),
        .target(
            name: "NavSignal",
            dependencies: ["NavCore", .product(name: "Numerics", package: "swift-numerics")]
        ),
        .target(
            name: "NavSpectral",
            dependencies: ["NavCore", "CFFTW", .product(name: "Numerics", package: "swift-numerics")]
        ),
        .target(
            name: "NavGeometry",
            dependencies: ["NavCore", .product(name: "RealModule", package: "swift-numerics")]
        ),
        .target(
            name: "NavMetrics",
            dependencies: ["NavCore", "NavGeometry", "NavStatistics", .product(name: "RealModule", package: "swift-numerics")]
        ),
        .target(name: "NavGuidance", dependencies: ["NavCore"], swiftSettings: optimisedInDebug),
        .target(name: "NavAids", dependencies: ["NavCore", "NavSignal"]),
        .target(
            name: "NavSim", dependencies: ["NavCore", "NavSynth", "NavGeometry", "NavGuidance", "NavStatistics"], swiftSettings: optimisedInDebug),
        // ROS 1 bags and MCAP: records, chunks (bz2, LZ4, Zstandard), ROS 1 and CDR messages.
        .target(name: "NavRosbag", dependencies: ["NavCore", "CBZip2", "CLZ4", "CZstd"]),
        .target(
            name: "NavIO",
            dependencies: [
                "NavCore", "CHDF5", "CZlib", "CLibCrypto", "CSQLite", "NavRosbag",
            ]
        ),
        .target(
            name: "NavImport",
            dependencies: ["NavCore", "NavGeometry", "NavMetrics", "NavIO", "NavRosbag", "NavStatistics", .product(name: "Yams", package: "Yams")]
        ),
        .target(name: "NavReport", dependencies: ["NavCore", "NavIO", "NavGeometry", "NavMetrics", "NavSignal", "NavSim", "NavStatistics", "NavGuidance", "NavSynth"]),
        .target(
            name: "NavPipeline",
            dependencies: [
                "NavCore", "NavIO", "NavImport", "NavSignal", "NavSpectral", "NavReport", "NavGuidance", "NavAids",
                "NavGeometry", "NavMetrics", "NavStatistics", "NavSynth", "NavSim", .product(name: "Yams", package: "Yams"),
                .product(name: "Subprocess", package: "swift-subprocess"),  // exec: plugins (ExecPlugin.swift)
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The CLI's own code is compiled unoptimised in release builds too: its work runs in the library
        // modules, and its argument-parser wiring took 69 s of CPU at -O against 16 s (docs/ci.md).
        .executableTarget(
            name: "navbench",
            dependencies: [
                "NavProcessPolicy", "NavCore", "NavIO", "NavImport", "NavSynth", "NavReport", "NavSignal", "NavSpectral", "NavPipeline",
                "NavGeometry", "NavGuidance", "NavMetrics", "NavAids", "NavRosbag", "NavSim",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.unsafeFlags(["-Onone"], .when(configuration: .release))]
        ),
        // The benchmarks (`navbench-bench`), apart from the product: timings against the peers.
        .executableTarget(
            name: "navbench-bench",
            dependencies: [
                "NavProcessPolicy", "NavCore", "NavIO", "NavSignal", "NavSpectral", "NavGeometry", "NavMetrics", "NavReport", "NavPipeline",
                "NavGuidance", "NavSim", "NavSynth",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The executables' process policy (glibc malloc tuning, page-fault counts); no library imports it.
        .target(name: "NavProcessPolicy"),
        .testTarget(name: "NavProcessPolicyTests", dependencies: ["NavProcessPolicy", "NavTestSupport", "NavCore", "NavIO"]),
        .testTarget(
            name: "NavCoreTests",
            dependencies: ["NavCore", .product(name: "RealModule", package: "swift-numerics")]
        ),
        .testTarget(name: "NavSynthTests", dependencies: ["NavCore", "NavSynth"]),
        .testTarget(name: "NavSimTests", dependencies: ["NavCore", "NavSynth", "NavGeometry", "NavGuidance", "NavSim"]),
        .testTarget(
            name: "NavIOTests",
            dependencies: ["NavTestSupport", "NavCore", "NavIO", "NavSynth"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "NavImportTests",
            dependencies: ["NavTestSupport", "NavCore", "NavGeometry", "NavIO", "NavImport", "NavRosbag", "NavSynth"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "NavSignalTests",
            dependencies: ["NavTestSupport", "NavCore", "NavIO", "NavSignal"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "NavSpectralTests", dependencies: ["NavTestSupport", "NavSpectral"]),
        .testTarget(
            name: "NavGeometryTests",
            dependencies: ["NavTestSupport", "NavCore", "NavGeometry", .product(name: "RealModule", package: "swift-numerics")],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "NavMetricsTests",
            dependencies: ["NavTestSupport", "NavCore", "NavGeometry", "NavMetrics", "NavIO", .product(name: "RealModule", package: "swift-numerics")],
            resources: [.copy("Fixtures")]
        ),
        // Fixtures read by path (GaitFitTests: the gait reference of scripts/make_gait_fixtures.py).
        .testTarget(name: "NavReportTests", dependencies: ["NavCore", "NavGeometry", "NavMetrics", "NavIO", "NavReport", "NavSim", "NavStatistics"], exclude: ["Fixtures"]),
        .testTarget(name: "NavGuidanceTests", dependencies: ["NavCore", "NavGuidance"]),
        .testTarget(name: "NavAidsTests", dependencies: ["NavCore", "NavSignal", "NavAids", "NavSynth"]),
        .testTarget(
            name: "NavPipelineTests",
            dependencies: [
                "NavCore", "NavIO", "NavSynth", "NavGeometry", "NavGuidance", "NavPipeline", "NavReport", "NavAids", "NavSignal", "NavSim",
                "NavStatistics",
            ],
            exclude: ["Fixtures"]),  // read by path (ProximityFitTests)
        .testTarget(
            name: "NavRosbagTests",
            dependencies: ["NavTestSupport", "NavCore", "NavRosbag"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "CLITests", dependencies: ["navbench", "NavTestSupport"]),
        // Helpers shared by the test targets (fixture paths, temporary folders, reference files).
        .target(name: "NavTestSupport", dependencies: ["NavIO"], path: "Tests/NavTestSupport"),
        .testTarget(name: "NavStatisticsTests", dependencies: ["NavTestSupport", "NavCore", "NavStatistics"], resources: [.copy("Fixtures")]),
    ]
)

// `make test` builds once with -c release (tests, checks, demo and benchmarks share it); the test
// targets' own code is compiled unoptimised there: 125 s instead of 246 s on 2 cores, while the
// code under test stays optimised (docs/ci.md). Nothing imports a test module but the test runner,
// so each is type-checked once: no separate job emitting its module (46 s of CPU in all).
for target in package.targets where target.type == .test {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone", "-no-emit-module-separately-wmo"], .when(configuration: .release))]
}
