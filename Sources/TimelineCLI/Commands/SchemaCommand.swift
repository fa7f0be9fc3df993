import TimelineKit

/// `timeline schema`: the JSON Schemas the outputs follow.
enum SchemaCommand: Command {
    static let name = "schema"
    static let abstract = "Print the canonical JSON Schema"
    static let summary =
        "Print the canonical timeline JSON Schema (or the validation report schema)."
    static let usage = "timeline schema [--report]"
    static let discussion: String? =
        "The schemas are JSON Schema 2020-12, the same bytes as Schemas/ in the source tree."
    static let examples: [(command: String, explanation: String)] = [
        ("timeline schema > timeline.schema.json", "Save the document/event schema"),
        ("timeline schema --report | python3 -m json.tool", "Inspect the validation report schema"),
    ]

    struct Options: OptionGroup {
        let report = Option.flag("report", help: "Print the validation report schema instead.")
    }

    static func run(_ args: Arguments<Options>, _ env: CommandEnvironment) throws(TimelineError)
        -> ExitCode
    {
        guard args.positionals.isEmpty else {
            throw TimelineError(.usage, "unexpected argument '\(args.positionals[0])'")
        }
        try env.standardOutput.write(
            (args[\.report] ? EmbeddedSchemas.validationReport : EmbeddedSchemas.timeline) + "\n")
        try env.standardOutput.commit()
        return .success
    }
}
