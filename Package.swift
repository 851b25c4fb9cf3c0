// swift-tools-version:6.1
import PackageDescription

// Layers, one way only:
//   NavCore (value types, no I/O)
//     ← NavSignal, NavSynth (pure algorithms)   NavSpectral (FFT through CFFTW)
//       ← NavIO (HDF5 through CHDF5, CSV, trace format v1, validate/inspect)
//         ← NavReport (reports over files)
//           ← NavPipeline (jobs over files: filter a stream, spectra, …)
//             ← navbench (thin CLI)
let package = Package(
    name: "navbench",
    products: [
        .executable(name: "navbench", targets: ["navbench"]),
        .library(name: "NavCore", targets: ["NavCore"]),
        .library(name: "NavIO", targets: ["NavIO"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
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
        .target(name: "NavGuidance", dependencies: ["NavCore"]),
        .target(
            name: "NavSignal",
            dependencies: ["NavCore", .product(name: "Numerics", package: "swift-numerics")]
        ),
        .systemLibrary(
            name: "CFFTW",
            pkgConfig: "fftw3",
            providers: [.apt(["libfftw3-dev"])]
        ),
        .target(
            name: "NavSpectral",
            dependencies: ["NavCore", "NavSignal", "CFFTW", .product(name: "Numerics", package: "swift-numerics")]
        ),
        .target(
            name: "NavIO",
            dependencies: [
                "NavCore", "CHDF5",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CSV", package: "CSV.swift"),
            ]
        ),
        .target(name: "NavReport", dependencies: ["NavCore", "NavIO", "NavSynth"]),
        .target(
            name: "NavPipeline",
            dependencies: ["NavCore", "NavIO", "NavSignal", "NavSpectral", "NavSynth", "NavReport", "NavGuidance"]
        ),
        .executableTarget(
            name: "navbench",
            dependencies: [
                "NavCore", "NavIO", "NavSynth", "NavReport", "NavSignal", "NavSpectral", "NavPipeline",
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
            name: "NavSignalTests",
            dependencies: ["NavCore", "NavIO", "NavSignal", "NavSpectral", "NavPipeline"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "NavGuidanceTests", dependencies: ["NavCore", "NavGuidance"]),
        .testTarget(name: "CLITests", dependencies: ["navbench"]),
    ]
)
