#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import TimelineKit

/// The `timeline` command line: dispatches to a subcommand, prints diagnostics, and turns
/// errors into the exit codes of docs/exit-codes.md. Everything else lives in `TimelineKit`.
public enum TimelineCommand {
    public static let version = "0.1.0"

    private typealias Runner = @Sendable (ParsedArguments, CommandEnvironment) throws(TimelineError) -> ExitCode
    private static let commands: [(spec: CommandSpec, run: Runner)] = [
        (ConvertCommand.spec, ConvertCommand.run),
        (ValidateCommand.spec, ValidateCommand.run),
        (DatesCommand.spec, DatesCommand.run),
        (ZonesCommand.spec, ZonesCommand.run),
        (SchemaCommand.spec, SchemaCommand.run),
    ]

    static let overview = """
        OVERVIEW: timeline — convert timeline data (CSV, JSON/NDJSON, ICS) into one exact, zone-explicit
        timeline, and report the time-zone mistakes that put events on the wrong day.

        USAGE: timeline <command> [options]

        COMMANDS:
          convert    Convert between formats, normalising every date
          validate   Report time-zone grouping anomalies
          dates      Clean a stream of date/time strings, one per line
          zones      Resolve zone names, or list them
          schema     Print the canonical JSON Schema

        OPTIONS:
          -h, --help    Show help (also 'timeline <command> --help')
          --version     Show the version

        EXAMPLES:
          timeline convert samples/events.ndjson --to json
          printf '2024-06-12 08:00\\n' | timeline dates --assume-zone Asia/Shanghai
          timeline zones 'China Standard Time' US/Eastern

        """

    /// Runs the process and exits with its code.
    public static func main() -> Never {
        let env = CommandEnvironment.process()
        let code = run(Array(CommandLine.arguments.dropFirst()), env)
        exit(code.rawValue)
    }

    /// Runs `arguments` (without the program name) and returns the exit code.
    public static func run(_ arguments: [String], _ env: CommandEnvironment) -> ExitCode {
        guard let first = arguments.first else {
            env.error(overview)
            return .usage
        }
        if first == "--help" || first == "-h" || first == "help" {
            if arguments.count > 1, let c = commands.first(where: { $0.spec.name == arguments[1] }) {
                return printHelp(c.spec, env)
            }
            return writeOut(overview, env)
        }
        if first == "--version" { return writeOut("timeline \(version)\n", env) }
        guard let command = commands.first(where: { $0.spec.name == first }) else {
            let suggestion = ArgumentParser.closest(first, among: commands.map(\.spec.name)).map { " Did you mean '\($0)'?" } ?? ""
            env.error("timeline: error: unknown command '\(first)'.\(suggestion)\nUsage: timeline <command> [options]\nSee 'timeline --help'.\n")
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") { return printHelp(command.spec, env) }
        do throws(UsageError) {
            let parsed = try ArgumentParser.parse(rest, for: command.spec)
            do throws(TimelineError) {
                return try command.run(parsed, env)
            } catch {
                env.print(error.diagnostic)
                if error.kind == .usage { usageHint(command.spec, env) }
                return ExitCode(error.kind)
            }
        } catch {
            env.print(Diagnostic(.error, error.message))
            usageHint(command.spec, env)
            return .usage
        }
    }

    private static func usageHint(_ spec: CommandSpec, _ env: CommandEnvironment) {
        env.error("Usage: \(spec.usage)\nSee 'timeline \(spec.name) --help'.\n")
    }

    private static func printHelp(_ spec: CommandSpec, _ env: CommandEnvironment) -> ExitCode {
        writeOut(HelpFormatter.render(spec), env)
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
