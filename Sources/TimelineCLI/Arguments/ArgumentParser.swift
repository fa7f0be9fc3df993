import Foundation
import TimelineKit

/// Parses a command's arguments against its declared options: long options with a value
/// inline (`--to=csv`) or next, short options (`-o FILE`, `-oFILE`), flags, `--` to end
/// options, `-` as a positional (standard input). Each value is converted to its option's
/// type here, so every usage error comes out before the command runs.
enum ArgumentParser {
    static func parse(_ arguments: [String], options: [any OptionDeclaration]) throws(UsageError)
        -> ParsedArguments
    {
        var parsed = ParsedArguments()
        var i = 0
        var onlyPositionals = false
        func lookup(_ name: String) throws(UsageError) -> OptionSpec {
            if let o = options.first(where: { $0.spec.name == name }) { return o.spec }
            let suggestion =
                Suggestion.closest(name, among: options.map(\.spec.name)).map {
                    "; did you mean '--\($0)'?"
                }
                ?? ""
            throw UsageError(message: "unknown option '--\(name)'\(suggestion)")
        }
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            if onlyPositionals || arg == "-" || !arg.hasPrefix("-") {
                parsed.positionals.append(arg)
                continue
            }
            if arg == "--" {
                onlyPositionals = true
                continue
            }
            var option: OptionSpec
            var inlineValue: String?
            if arg.hasPrefix("--") {
                let body = arg.dropFirst(2)
                if let eq = body.firstIndex(of: "=") {
                    option = try lookup(String(body[..<eq]))
                    inlineValue = String(body[body.index(after: eq)...])
                } else {
                    option = try lookup(String(body))
                }
            } else {
                let letter = arg.dropFirst().first!
                guard let o = options.first(where: { $0.spec.short == letter }) else {
                    throw UsageError(message: "unknown option '\(arg)'")
                }
                option = o.spec
                if arg.count > 2 { inlineValue = String(arg.dropFirst(2)) }
            }
            guard let valueName = option.valueName else {
                if inlineValue != nil {
                    throw UsageError(message: "option '--\(option.name)' takes no value")
                }
                parsed.texts[option.name, default: []].append("")
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard i < arguments.count else {
                    throw UsageError(
                        message: "option '--\(option.name)' needs a value (\(valueName))")
                }
                value = arguments[i]
                i += 1
            }
            if let choices = option.choices, !choices.contains(value) {
                throw UsageError(
                    message:
                        "invalid value '\(value)' for '--\(option.name)'; valid values: \(choices.joined(separator: ", "))"
                )
            }
            if !option.repeatable, parsed.texts[option.name] != nil {
                throw UsageError(message: "option '--\(option.name)' given more than once")
            }
            parsed.texts[option.name, default: []].append(value)
        }
        // Typed values, in declaration order (so the first bad value reported is the first
        // declared, whatever the order on the command line).
        for option in options {
            if let texts = parsed.texts[option.spec.name] {
                parsed.values[option.spec.name] = try option.value(of: texts)
            }
        }
        return parsed
    }

}

/// Renders `--help` for a command and the overview of all commands, from their declarations.
enum HelpFormatter {
    static func render(_ command: any Command.Type) -> String {
        var out = "OVERVIEW: \(command.summary)\n\nUSAGE: \(command.usage)\n"
        if let d = command.discussion { out += "\n" + d + "\n" }
        if let p = command.positional {
            out += "\nARGUMENTS:\n" + row(p.name, p.help)
        }
        let options = command.optionDeclarations.map(\.spec)
        if !options.isEmpty {
            out += "\nOPTIONS:\n"
            for o in options {
                var help = o.help
                if let choices = o.choices { help += " (\(choices.joined(separator: "|")))" }
                if let d = o.defaultText { help += " [default: \(d)]" }
                if o.repeatable { help += " [repeatable]" }
                out += row(o.displayName, help)
            }
        }
        out += row("-h, --help", "Show this help.")
        if !command.examples.isEmpty {
            out += "\nEXAMPLES:\n"
            for e in command.examples { out += "  # \(e.explanation)\n  \(e.command)\n\n" }
            out.removeLast()
        }
        return out
    }

    /// The program's overview: what it does, its commands with their one-line abstracts,
    /// the global options and a few examples.
    static func overview(_ commands: [any Command.Type], examples: [String]) -> String {
        let width = (commands.map { $0.name.count }.max() ?? 0) + 3
        var out = """
            OVERVIEW: timeline — convert timeline data (CSV, JSON/NDJSON, ICS) into one exact, zone-explicit
            timeline, and report the time-zone mistakes that put events on the wrong day.

            USAGE: timeline <command> [options]

            COMMANDS:

            """
        for c in commands {
            out +=
                "  " + c.name.padding(toLength: width, withPad: " ", startingAt: 0) + c.abstract
                + "\n"
        }
        out += """

            OPTIONS:
              -h, --help    Show help (also 'timeline <command> --help')
              --version     Show the version

            EXAMPLES:

            """
        for e in examples { out += "  \(e)\n" }
        return out + "\n"
    }

    private static func row(_ left: String, _ right: String) -> String {
        let width = 28
        let pad =
            left.count <= width - 4
            ? String(repeating: " ", count: width - 2 - left.count)
            : "\n" + String(repeating: " ", count: width)
        return "  \(left)\(pad)\(wrap(right, indent: width))\n"
    }

    private static func wrap(_ text: String, indent: Int) -> String {
        let limit = 100 - indent
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if !line.isEmpty && line.count + 1 + word.count > limit {
                lines.append(line)
                line = String(word)
            } else {
                line += (line.isEmpty ? "" : " ") + word
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
    }
}
