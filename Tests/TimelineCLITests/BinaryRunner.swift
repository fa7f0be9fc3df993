import Foundation

/// Runs the built `timeline` executable, as a user or a pipeline would.
struct BinaryRunner {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The `timeline` binary beside the test bundle (SwiftPM builds it for `swift test`).
    static var executable: URL {
        var dir = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("timeline")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug/timeline")
    }

    /// Runs with standard input from `stdin` (empty if nil); output is collected through
    /// temporary files so large outputs cannot dead-lock a pipe.
    /// `fileSizeLimit` (bytes) caps every file the run writes, as `ulimit -f` does: a write
    /// past it fails (EFBIG, the signal ignored), which is how a full disk looks to it.
    /// `program` runs another program (a wrapper such as `script`) instead of `timeline`.
    static func run(
        _ arguments: [String], stdin: String? = nil, cwd: URL? = nil,
        environment: [String: String] = [:], fileSizeLimit: Int? = nil, program: String? = nil
    ) throws -> Output {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let paths = ["in", "out", "err"].map { dir.appendingPathComponent($0) }
        try Data((stdin ?? "").utf8).write(to: paths[0])
        for p in paths.dropFirst() {
            _ = FileManager.default.createFile(atPath: p.path, contents: nil)
        }
        let process = Process()
        if let fileSizeLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments =
                [
                    "-c", "trap '' XFSZ; ulimit -f \(fileSizeLimit / 512); exec \"$0\" \"$@\"",
                    executable.path,
                ] + arguments
        } else {
            process.executableURL = program.map(URL.init(fileURLWithPath:)) ?? executable
            process.arguments = arguments
        }
        process.currentDirectoryURL = cwd ?? packageRoot
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardInput = try FileHandle(forReadingFrom: paths[0])
        process.standardOutput = try FileHandle(forWritingTo: paths[1])
        process.standardError = try FileHandle(forWritingTo: paths[2])
        try process.run()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: try String(contentsOf: paths[1], encoding: .utf8),
            stderr: try String(contentsOf: paths[2], encoding: .utf8))
    }

    /// Runs one of the repository's Python oracle scripts (scripts/…, their packages
    /// installed by scripts/install-test-deps) from the package root; its standard output,
    /// and whether it exited 0.
    static func python(_ script: String, _ arguments: [String]) throws -> (
        output: Data, succeeded: Bool
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        process.currentDirectoryURL = packageRoot
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (data, process.terminationStatus == 0)
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "timeline-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
