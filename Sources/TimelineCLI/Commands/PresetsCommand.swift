import TimelineKit

/// `timeline presets`: the services whose exports are read without flags, and how each is
/// recognised and mapped.
enum PresetsCommand: Command {
    static let name = "presets"
    static let abstract = "List the export presets"
    static let summary =
        "List the presets: the exports (WeChat Pay, Alipay, PayPal, …) read without flags, and how each is recognised."
    static let usage = "timeline presets [NAME]"
    static let discussion: String? = """
        Without NAME, prints each preset's name, what it reads, how it is recognised, what it maps and
        the public documentation it follows. With NAME, prints that preset's file: a JSON object in the
        format of --mapping FILE, to copy and adapt (pass your own file with --preset FILE).
        """
    static let positional: (name: String, help: String)? = (
        "NAME", "A preset to print as its file."
    )
    static let examples: [(command: String, explanation: String)] = [
        ("timeline presets", "Every preset, its signature and its documentation"),
        (
            "timeline presets paypal > my-paypal.json",
            "A preset's file, to adapt and pass with --preset my-paypal.json"
        ),
        (
            "timeline convert samples/presets/paypal.csv --preset paypal --verbose",
            "Read a file as a PayPal download even if its columns differ"
        ),
    ]

    struct Options: OptionGroup {}

    static func run(_ args: Arguments<Options>, _ env: CommandEnvironment) throws(TimelineError)
        -> ExitCode
    {
        let out = env.standardOutput
        if let name = args.positionals.first {
            guard args.positionals.count == 1 else {
                throw TimelineError(.usage, "unexpected argument '\(args.positionals[1])'")
            }
            guard let preset = MappingPreset.named(name) else {
                throw TimelineError(
                    .usage,
                    "unknown preset '\(name)'; presets are \(MappingPreset.builtIn.map(\.name).joined(separator: ", "))"
                )
            }
            try out.write(preset.definition)
            try out.commit()
            return .success
        }
        var text = ""
        for preset in MappingPreset.builtIn {
            text += "\(preset.name)\n  \(preset.title)\n"
            text += "  recognised by: \(describe(preset.signature))\n"
            let maps =
                preset.mapping.fields.map { "\($0.field)=\($0.source)" }
                + preset.events.map { "'\($0.column)' → event '\($0.title)'" }
            if !maps.isEmpty { text += "  maps: \(maps.joined(separator: ", "))\n" }
            if let order = preset.dateOrder {
                text +=
                    "  dates: \(order == .monthFirst ? "month-first" : "day-first") when the values leave it open\n"
            }
            if !preset.records.isEmpty {
                text += "  records: \(preset.records.joined(separator: " or "))\n"
            }
            for page in preset.documentation { text += "  follows: \(page)\n" }
            text += "\n"
        }
        try out.write(text)
        try out.commit()
        return .success
    }

    private static func describe(_ s: MappingPreset.Signature) -> String {
        var parts: [String] = []
        if !s.preamble.isEmpty {
            parts.append(
                "a line before the header holding \(s.preamble.map { "'\($0)'" }.joined(separator: " or "))"
            )
        }
        if !s.headers.isEmpty { parts.append("the columns \(s.headers.joined(separator: ", "))") }
        if !s.paths.isEmpty { parts.append("an array at \(s.paths.joined(separator: " or "))") }
        if !s.keys.isEmpty { parts.append("the top-level keys \(s.keys.joined(separator: ", "))") }
        return parts.isEmpty ? "only when named (--preset)" : parts.joined(separator: "; or ")
    }
}
