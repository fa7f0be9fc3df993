import TimelineKit

/// A subcommand, declared once: its name, texts for help, its options (an `OptionGroup`
/// whose declarations are found by reflection) and what it runs.
protocol Command: Sendable {
    associatedtype Options: OptionGroup
    /// The word after `timeline`.
    static var name: String { get }
    /// One line for the overview's command list.
    static var abstract: String { get }
    /// The first line of the command's help.
    static var summary: String { get }
    static var usage: String { get }
    static var discussion: String? { get }
    /// The positional arguments, for help; nil when it takes none.
    static var positional: (name: String, help: String)? { get }
    static var examples: [(command: String, explanation: String)] { get }
    /// Runs with the parsed arguments (`arguments[\.sort]`); throws for exit codes 64–74.
    static func run(_ arguments: Arguments<Options>, _ env: CommandEnvironment)
        throws(TimelineError) -> ExitCode
}

extension Command {
    static var discussion: String? { nil }
    static var positional: (name: String, help: String)? { nil }

    static var optionDeclarations: [any OptionDeclaration] { Options().declarations }

    /// Parses `arguments` and runs.
    static func parseAndRun(_ arguments: [String], _ env: CommandEnvironment) throws(UsageError)
        -> Result<ExitCode, TimelineError>
    {
        let parsed = try ArgumentParser.parse(arguments, options: optionDeclarations)
        do throws(TimelineError) {
            return .success(try run(Arguments(parsed: parsed), env))
        } catch {
            return .failure(error)
        }
    }
}
