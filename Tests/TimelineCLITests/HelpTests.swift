import Testing

@testable import TimelineCLI

@Suite("help and version")
struct HelpTests {
    @Test("every command's --help shows usage, every option with its default, and examples", arguments: ["convert", "validate", "dates", "zones", "schema"])
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
        #expect(try BinaryRunner.run(["--version"]).stdout == "timeline \(TimelineCommand.version)\n")
        let none = try BinaryRunner.run([])
        #expect(none.status == 64)
        #expect(none.stderr.contains("COMMANDS:"))
    }
}
