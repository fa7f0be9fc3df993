import Foundation

/// Runs the `timeline` binary and measures it: wall time and its own peak resident memory,
/// killed after `timeout` so that a hang fails the test instead of stalling the suite.
///
/// The run is the grandchild of this process, under a small Python parent that forks it,
/// waits for it with `wait4` and prints its `rusage`: Linux counts in a process's peak the
/// memory of the process it was spawned from, and a test runner's is large.
struct MeasuredRun {
    var status: Int32
    /// The signal that ended the run, if one did (a kill after the timeout is SIGKILL).
    var signal: Int32?
    var stdout: Data
    var stderr: String
    var seconds: Double
    /// Peak resident set size, in bytes.
    var peakMemory: Int

    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }

    static let parent = """
        import os, signal, sys, time
        out, err, timeout, mask = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:
            os.dup2(os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 1)
            os.dup2(os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 2)
            if mask != "-":
                os.umask(int(mask, 8))
            os.execv(sys.argv[5], sys.argv[5:])
        signal.signal(signal.SIGALRM, lambda *_: os.kill(pid, signal.SIGKILL))
        signal.setitimer(signal.ITIMER_REAL, timeout)
        while True:
            try:
                _, status, usage = os.wait4(pid, 0)
                break
            except InterruptedError:
                pass
        seconds = time.monotonic() - started
        code = os.waitstatus_to_exitcode(status)
        print(code, seconds, usage.ru_maxrss * 1024)
        """

    /// - Parameter umask: the run's file creation mask (octal digits), else this process's.
    static func run(
        _ arguments: [String], stdinFile: String? = nil, timeout: Double = 30, umask: String? = nil
    ) throws -> MeasuredRun {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out").path
        let err = dir.appendingPathComponent("err").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "python3", "-c", parent, out, err, String(timeout), umask ?? "-",
                BinaryRunner.executable.path,
            ] + arguments
        process.currentDirectoryURL = BinaryRunner.packageRoot
        process.standardInput =
            stdinFile.flatMap { FileHandle(forReadingAtPath: $0) } ?? FileHandle.nullDevice
        let report = Pipe()
        process.standardOutput = report
        try process.run()
        let line = String(
            decoding: report.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self
        ).split(separator: " ")
        process.waitUntilExit()
        guard line.count == 3, let code = Int32(line[0]), let seconds = Double(line[1]),
            let peak = Int(line[2].trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw CocoaError(.executableLoad)
        }
        return MeasuredRun(
            status: code >= 0 ? code : -1, signal: code < 0 ? -code : nil,
            stdout: (try? Data(contentsOf: URL(fileURLWithPath: out))) ?? Data(),
            stderr: String(
                decoding: (try? Data(contentsOf: URL(fileURLWithPath: err))) ?? Data(),
                as: UTF8.self),
            seconds: seconds, peakMemory: peak)
    }
}
