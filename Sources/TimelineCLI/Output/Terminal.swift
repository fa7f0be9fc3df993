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
        env.noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        env.clock = { Instant(seconds: Instant(Date()).seconds) }
        if let tmp = ProcessInfo.processInfo.environment["TMPDIR"], !tmp.isEmpty {
            env.temporaryDirectory = tmp
        }
        return env
    }

    package func error(_ text: String) { writeError(text) }

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
        var text = "\(prefix): \(d.severity.rawValue): \(code)\(VisibleText.forPeople(d.message))\n"
        for note in d.notes { text += "\(prefix): note: \(VisibleText.forPeople(note))\n" }
        writeError(text)
    }
}

/// A one-line progress counter on standard error, only when it is a terminal.
final class ProgressIndicator {
    private let environment: CommandEnvironment
    private var lastDraw = ContinuousClock.now
    private var drawn = false

    init(environment: CommandEnvironment) {
        self.environment = environment
    }

    /// What the run is doing besides counting (`sorted runs on disk: 3`).
    var phase: String?

    func update(_ records: Int, _ what: String) {
        guard environment.stderrIsTerminal else { return }
        let now = ContinuousClock.now
        guard now - lastDraw >= .seconds(1) else { return }
        lastDraw = now
        drawn = true
        environment.error(
            "\r\u{1B}[K\(what): \(records) records…" + (phase.map { " (\($0))" } ?? ""))
    }

    func clear() {
        if drawn { environment.error("\r\u{1B}[K") }
    }
}
