// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "timeline",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "TimelineKit", targets: ["TimelineKit"]),
        .executable(name: "timeline", targets: ["timeline"]),
    ],
    targets: [
        // The library: model, date engine, importers, exporters, validation. Never prints or exits.
        .target(
            name: "TimelineKit",
            resources: [.embedInCode("Mapping/Presets"), .embedInCode("Mapping/Words")]),
        // The command line: argument parsing, help, diagnostics printer, exit codes.
        .target(name: "TimelineCLI", dependencies: ["TimelineKit"]),
        .executableTarget(name: "timeline", dependencies: ["TimelineCLI"]),
        .executableTarget(
            name: "timeline-bench", dependencies: ["TimelineKit"], path: "Sources/TimelineBench"),
        .testTarget(
            name: "TimelineKitTests", dependencies: ["TimelineKit"],
            resources: [.copy("Resources")]),
        // Fixtures are read by path (they are checked by an external validator, not loaded).
        .testTarget(
            name: "TimelineCLITests", dependencies: ["TimelineCLI", "TimelineKit"],
            exclude: ["Fixtures", "Snapshots"]),
    ]
)
