import Foundation
import TimelineKit

/// The `timeline` command line: dispatches to a subcommand, prints diagnostics, and turns
/// errors into the exit codes of docs/exit-codes.md. Everything else lives in `TimelineKit`.
package enum TimelineCommand {
    package static let version = "0.1.0"

    /// The subcommands, in the order the overview lists them.
    static let commands: [any Command.Type] = [
        ConvertCommand.self, ValidateCommand.self, DatesCommand.self, ZonesCommand.self,
        PresetsCommand.self, SchemaCommand.self,
    ]

    static var overview: String {
        HelpFormatter.overview(
            commands,
            examples: [
                "timeline convert samples/events.ndjson --to json",
                "printf '2024-06-12 08:00\\n' | timeline dates --assume-zone Asia/Shanghai",
                "timeline zones 'China Standard Time' US/Eastern",
            ])
    }

    /// Runs the process and exits with its code.
    package static func main() -> Never {
        // An interrupted run (Ctrl-C, a killed pipeline) leaves no temporary output behind.
        TerminationCleanup.installHandlers()
        let env = CommandEnvironment.process()
        let code = run(Array(CommandLine.arguments.dropFirst()), env)
        exit(code.rawValue)
    }

    /// Runs `arguments` (without the program name) and returns the exit code.
    package static func run(_ arguments: [String], _ env: CommandEnvironment) -> ExitCode {
        guard let first = arguments.first else {
            env.error(overview)
            return .usage
        }
        if first == "--help" || first == "-h" || first == "help" {
            if arguments.count > 1, let c = commands.first(where: { $0.name == arguments[1] }) {
                return writeOut(HelpFormatter.render(c), env)
            }
            return writeOut(overview, env)
        }
        if first == "--version" { return writeOut("timeline \(version)\n", env) }
        guard let command = commands.first(where: { $0.name == first }) else {
            let suggestion =
                Suggestion.closest(first, among: commands.map { $0.name }).map {
                    " Did you mean '\($0)'?"
                } ?? ""
            env.error(
                "timeline: error: unknown command '\(first)'.\(suggestion)\nUsage: timeline <command> [options]\nSee 'timeline --help'.\n"
            )
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            return writeOut(HelpFormatter.render(command), env)
        }
        do throws(UsageError) {
            switch try command.parseAndRun(rest, env) {
            case .success(let code):
                return code
            case .failure(let error):
                env.print(error.diagnostic)
                if error.kind == .usage { usageHint(command, env) }
                return ExitCode(error.kind)
            }
        } catch {
            env.print(Diagnostic(.error, error.message))
            usageHint(command, env)
            return .usage
        }
    }

    private static func usageHint(_ command: any Command.Type, _ env: CommandEnvironment) {
        env.error("Usage: \(command.usage)\nSee 'timeline \(command.name) --help'.\n")
    }

    private static func writeOut(_ text: String, _ env: CommandEnvironment) -> ExitCode {
        do throws(TimelineError) {
            try env.standardOutput.write(text)
            try env.standardOutput.commit()
            return .success
        } catch {
            env.print(error.diagnostic)
            return ExitCode(error.kind)
        }
    }
}
