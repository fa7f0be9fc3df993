import Foundation
import TimelineKit

/// The exit codes of docs/exit-codes.md (sysexits).
package enum ExitCode: Int32, Sendable {
    case success = 0
    /// `validate` found problems at or above `--fail-on`.
    case findings = 1
    case usage = 64
    case dataError = 65
    case noInput = 66
    case cannotCreate = 73
    case ioError = 74

    init(_ kind: TimelineError.Kind) {
        switch kind {
        case .usage: self = .usage
        case .data: self = .dataError
        case .inputUnavailable: self = .noInput
        case .cannotCreateOutput: self = .cannotCreate
        case .ioError: self = .ioError
        }
    }
}

/// Where a command writes: standard output (buffered), standard error (immediate), and
/// whether standard error is a terminal (for progress).
package final class CommandEnvironment {
    package let standardOutput: OutputWriter
    private let writeError: (String) -> Void
    package let stderrIsTerminal: Bool
    package var stdoutIsTerminal = false
    package var stdinIsTerminal = false
    /// `NO_COLOR` is set (https://no-color.org convention).
    package var noColor = false
    /// The current moment, for relative times; the only place the clock is read.
    package var clock: () -> Instant = { Instant(seconds: 0) }
    /// The system's directory for temporary files (`TMPDIR`, else `/tmp`).
    package var temporaryDirectory = "/tmp"

    package init(
        standardOutput: OutputWriter, stderrIsTerminal: Bool, writeError: @escaping (String) -> Void
    ) {
        self.standardOutput = standardOutput
        self.stderrIsTerminal = stderrIsTerminal
        self.writeError = writeError
    }

    /// The real process streams.
    package static func process() -> CommandEnvironment {
        // Standard error is written at once; a failure to write a diagnostic has nowhere to go.
        let env = CommandEnvironment(
            standardOutput: .standardOutput(), stderrIsTerminal: System.isTerminal(2)
        ) { text in
            _ = System.writeAll(text, to: 2)
        }
        env.stdoutIsTerminal = System.isTerminal(1)
        env.stdinIsTerminal = System.isTerminal(0)
        env.noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        env.clock = { Instant(seconds: Instant(Date()).seconds) }
        if let tmp = ProcessInfo.processInfo.environment["TMPDIR"], !tmp.isEmpty {
            env.temporaryDirectory = tmp
        }
        return env
    }

    /// Whether a status line (progress) is on the terminal, to be cleared before any other
    /// text; guarded by `statusLock` (diagnostics may come from another thread).
    private var statusShown = false
    private let statusLock = NSLock()

    package func error(_ text: String) {
        statusLock.lock()
        defer { statusLock.unlock() }
        if statusShown {
            writeError("\r\u{1B}[K")
            statusShown = false
        }
        writeError(text)
    }

    /// Draws `text` as the status line, in place of the previous one.
    package func status(_ text: String) {
        statusLock.lock()
        defer { statusLock.unlock() }
        writeError("\r\u{1B}[K" + text)
        statusShown = true
    }

    /// Removes the status line, if one is shown.
    package func clearStatus() { error("") }

    /// Says that a command reads what is typed, when it reads standard input from a
    /// terminal: a run that seems to hang is waiting for input.
    package func noteTypedInput(_ paths: [String]) {
        guard stdinIsTerminal, paths.isEmpty || paths.contains("-") else { return }
        writeError(
            "timeline: reading standard input (end with Ctrl-D; pass a file to read it instead)\n")
    }

    /// Prints a diagnostic as `file:line:column: severity: [code] message`, then its notes.
    package func print(_ d: Diagnostic) {
        var prefix = "timeline"
        if let loc = d.location {
            prefix = loc.file
            if let line = loc.line {
                prefix += ":\(line)"
                if let column = loc.column { prefix += ":\(column)" }
            }
        }
        // A message quotes the data (a value, a raw line, a file name): shown, never acted on.
        prefix = VisibleText.forPeople(prefix)
        let code = d.code.map { "[\($0)] " } ?? ""
        var text =
            "\(prefix): \(d.severity.diagnosticLabel): \(code)\(VisibleText.forPeople(d.message(for: .commandLine)))\n"
        for note in d.notes(for: .commandLine) {
            text += "\(prefix): note: \(VisibleText.forPeople(note))\n"
        }
        error(text)
    }
}

/// One line of progress on standard error, redrawn in place: only when standard error is a
/// terminal and the run is not quiet, and not while the output goes to the same terminal
/// (the line would be spliced into it) unless asked for (`--progress`). At most a few draws
/// a second; `clear` removes the line before anything else is printed.
final class ProgressIndicator {
    private let environment: CommandEnvironment
    let isEnabled: Bool
    private let started = ContinuousClock.now
    private var lastDraw: ContinuousClock.Instant?
    private var lastPhase: ConvertProgress.Phase?

    /// - Parameters:
    ///   - choice: `--progress` (true), `--no-progress` (false), or neither.
    ///   - outputToTerminal: the command's output goes to standard output, a terminal.
    init(environment: CommandEnvironment, quiet: Bool, choice: Bool?, outputToTerminal: Bool) {
        self.environment = environment
        isEnabled =
            environment.stderrIsTerminal && (choice ?? (!quiet && !outputToTerminal))
    }

    /// Shows where a conversion is; a new phase is drawn at once, the rest when due.
    func show(_ p: ConvertProgress) {
        guard isEnabled else { return }
        let phaseChanged = lastPhase != nil && p.phase != lastPhase
        lastPhase = p.phase
        guard due(force: phaseChanged) else { return }
        draw(Self.describe(p, elapsed: ContinuousClock.now - started))
    }

    /// Shows how far `dates` has read: `what` (`rewriting dates`) with the percent of the
    /// input's bytes when its size is known, the lines, the rate and the time left.
    func show(lines: Int, bytesRead: Int, totalBytes: Int?, _ what: String) {
        guard isEnabled, due(force: false) else { return }
        var p = ConvertProgress()
        p.recordsRead = lines
        p.bytesRead = bytesRead
        p.totalBytes = totalBytes
        draw(Self.describe(p, elapsed: ContinuousClock.now - started, reading: what, unit: "lines"))
    }

    func clear() { environment.clearStatus() }

    private func due(force: Bool) -> Bool {
        let now = ContinuousClock.now
        if !force, let lastDraw, now - lastDraw < .milliseconds(250) { return false }
        // The first line waits a moment: a short run shows none.
        if lastDraw == nil && now - started < .milliseconds(500) && !force { return false }
        lastDraw = now
        return true
    }

    private func draw(_ text: String) { environment.status(text) }

    /// `reading 35% (1.2 of 3.4 GB), 190,837 records, 120,000/s, about 12 s left; 3 sorted
    /// runs on disk`, `merging 3 sorted runs: 45% (450,000 of 1,000,000 events)`, `validating`.
    static func describe(
        _ p: ConvertProgress, elapsed: Duration, reading: String = "reading",
        unit: String = "records"
    ) -> String {
        let seconds =
            Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        switch p.phase {
        case .reading:
            var text = reading
            if let fraction = p.fractionDone, let total = p.totalBytes {
                text += " \(Int(fraction * 100))% (\(ProgressText.bytes(p.bytesRead, of: total)))"
            }
            text += ", \(ProgressText.count(p.recordsRead)) \(unit)"
            if seconds >= 1 {
                text += ", \(ProgressText.count(Int(Double(p.recordsRead) / seconds)))/s"
                if let fraction = p.fractionDone, fraction > 0.01, fraction < 1 {
                    text +=
                        ", about \(ProgressText.duration(seconds * (1 - fraction) / fraction)) left"
                }
            }
            if p.runsOnDisk > 0 {
                text += "; \(p.runsOnDisk) sorted run\(p.runsOnDisk == 1 ? "" : "s") on disk"
            }
            return text
        case .merging:
            var text = "merging \(p.runsOnDisk + 1) sorted runs"
            if let fraction = p.fractionDone, let total = p.eventsToWrite {
                text +=
                    ": \(Int(fraction * 100))% (\(ProgressText.count(p.eventsWritten)) of \(ProgressText.count(total)) events)"
            }
            return text
        case .validating:
            return "validating \(ProgressText.count(p.recordsRead)) records"
        }
    }
}

/// Numbers as progress lines show them.
enum ProgressText {
    /// `1,234,567`, grouped as the readable outputs group amounts.
    static func count(_ n: Int) -> String { Amount.grouped(String(n)) }

    /// `1.2 of 3.4 GB`, `512 of 900 KB`: both in the unit of the total.
    static func bytes(_ n: Int, of total: Int) -> String {
        let units: [(String, Double)] = [("GB", 1e9), ("MB", 1e6), ("KB", 1e3)]
        let (unit, size) = units.first { Double(total) >= $0.1 } ?? ("bytes", 1)
        func f(_ x: Int) -> String {
            size == 1 ? String(x) : String(format: "%.1f", Double(x) / size)
        }
        return "\(f(n)) of \(f(total)) \(unit)"
    }

    /// `12 s`, `3 min`, `1 h 5 min`.
    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        if s < 90 { return "\(max(s, 1)) s" }
        if s < 5400 { return "\((s + 30) / 60) min" }
        return "\(s / 3600) h \((s % 3600 + 30) / 60) min"
    }
}
