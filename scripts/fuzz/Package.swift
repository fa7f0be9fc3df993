// swift-tools-version:6.0
// libFuzzer harnesses for every importer and the date engine (scripts/fuzz/run builds and
// runs them). A package of its own, depending on the toolkit by path, so the main package
// and its tests never build with sanitizers.
import PackageDescription

let targets = ["csv", "json", "ndjson", "ics", "timeline", "dates", "xlsx", "icsout"]

let package = Package(
    name: "timeline-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "timeline", path: "../..")],
    targets: [
        // SwiftPM renames an executable's `main`, so libFuzzer is entered through its
        // LLVMFuzzerRunDriver from C rather than through its own `main`.
        .target(name: "FuzzDriver"),
        .target(name: "FuzzTargets", dependencies: [.product(name: "TimelineKit", package: "timeline"), "FuzzDriver"]),
    ] + targets.map { .executableTarget(name: "fuzz-\($0)", dependencies: ["FuzzTargets"], path: "Sources/fuzz-\($0)") }
)
