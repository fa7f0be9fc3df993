import Foundation
import Testing

@testable import TimelineCLI

@Suite("help and version")
struct HelpTests {
    @Test(
        "every command's --help shows usage, every option with its default, and examples",
        arguments: ["convert", "validate", "dates", "zones", "schema"])
    func help(command: String) throws {
        let r = try BinaryRunner.run([command, "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("USAGE: timeline \(command)"))
        #expect(r.stdout.contains("EXAMPLES:"))
        #expect(r.stdout.components(separatedBy: "\n  # ").count >= 3)  // at least two examples
    }

    @Test("options with defaults show them")
    func defaults() throws {
        let r = try BinaryRunner.run(["convert", "--help"])
        #expect(r.stdout.contains("[default: asc]"))
        #expect(r.stdout.contains("[default: shift]"))
        #expect(r.stdout.contains("--assume-zone ZONE"))
    }

    @Test("--version and the overview")
    func version() throws {
        #expect(
            try BinaryRunner.run(["--version"]).stdout == "timeline \(TimelineCommand.version)\n")
        let none = try BinaryRunner.run([])
        #expect(none.status == 64)
        #expect(none.stderr.contains("COMMANDS:"))
    }

    /// The full help of each command, as recorded in Snapshots/ (each file read through by
    /// hand when recorded: every option with its type, choices and default, the examples).
    /// `RECORD_SNAPSHOTS=1 swift test --filter HelpTests` records them again after a change.
    @Test(
        "full help texts match the snapshots",
        arguments: ["", "convert", "validate", "dates", "zones", "schema"])
    func snapshot(command: String) throws {
        let file = BinaryRunner.packageRoot.appendingPathComponent(
            "Tests/TimelineCLITests/Snapshots/help\(command.isEmpty ? "" : "-" + command).txt")
        let r = try BinaryRunner.run(command.isEmpty ? ["--help"] : [command, "--help"])
        #expect(r.status == 0)
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil {
            try Data(r.stdout.utf8).write(to: file)
            return
        }
        #expect(r.stdout == (try String(contentsOf: file, encoding: .utf8)))
    }
}
