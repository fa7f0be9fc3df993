/// One command-line option: its names, its value (if any), its default and its help.
struct OptionSpec: Sendable {
    /// The long name without dashes (`assume-zone`); the key for parsed values.
    var name: String
    var short: Character?
    /// `ZONE`, `FILE`, …; nil for a flag.
    var valueName: String?
    var help: String
    /// The default as shown in help (`UTC`, `asc`); nil when there is none.
    var defaultText: String?
    var repeatable = false
    /// The allowed values, checked by the parser and listed in errors.
    var choices: [String]?

    static func flag(_ name: String, short: Character? = nil, _ help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, help: help, defaultText: nil)
    }

    static func value(
        _ name: String, short: Character? = nil, _ valueName: String, _ help: String, default defaultText: String? = nil,
        repeatable: Bool = false, choices: [String]? = nil
    ) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: valueName, help: help, defaultText: defaultText, repeatable: repeatable, choices: choices)
    }

    var displayName: String {
        let long = "--\(name)" + (valueName.map { " \($0)" } ?? "")
        return short.map { "-\($0), \(long)" } ?? long
    }
}

/// A command's interface: what `--help` shows and what the parser accepts.
struct CommandSpec: Sendable {
    var name: String
    var summary: String
    var usage: String
    var discussion: String?
    var positional: (name: String, help: String)?
    var options: [OptionSpec]
    var examples: [(command: String, explanation: String)]
}

/// Options and arguments after parsing, with typed accessors that throw usage errors.
struct ParsedArguments {
    var values: [String: [String]] = [:]
    var positionals: [String] = []

    func has(_ name: String) -> Bool { values[name] != nil }
    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
}

/// A usage error: exit 64, with the usage line and a pointer to `--help`.
struct UsageError: Error {
    var message: String
}

enum ArgumentParser {
    static func parse(_ arguments: [String], for spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var i = 0
        var onlyPositionals = false
        func lookup(_ name: String) throws(UsageError) -> OptionSpec {
            if let o = spec.options.first(where: { $0.name == name }) { return o }
            let suggestion = closest(name, among: spec.options.map(\.name)).map { "; did you mean '--\($0)'?" } ?? ""
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
                guard let o = spec.options.first(where: { $0.short == letter }) else {
                    throw UsageError(message: "unknown option '\(arg)'")
                }
                option = o
                if arg.count > 2 { inlineValue = String(arg.dropFirst(2)) }
            }
            guard option.valueName != nil else {
                if inlineValue != nil { throw UsageError(message: "option '--\(option.name)' takes no value") }
                parsed.values[option.name, default: []].append("")
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard i < arguments.count else {
                    throw UsageError(message: "option '--\(option.name)' needs a value (\(option.valueName!))")
                }
                value = arguments[i]
                i += 1
            }
            if let choices = option.choices, !choices.contains(value) {
                throw UsageError(message: "invalid value '\(value)' for '--\(option.name)'; valid values: \(choices.joined(separator: ", "))")
            }
            if !option.repeatable, parsed.values[option.name] != nil {
                throw UsageError(message: "option '--\(option.name)' given more than once")
            }
            parsed.values[option.name, default: []].append(value)
        }
        return parsed
    }

    /// The candidate within edit distance 2 of `word`, if any.
    static func closest(_ word: String, among candidates: [String]) -> String? {
        var best: (String, Int)?
        for c in candidates {
            let d = editDistance(Array(word), Array(c))
            if d <= 2, best == nil || d < best!.1 { best = (c, d) }
        }
        return best?.0
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}

/// Renders `--help` for a command.
enum HelpFormatter {
    static func render(_ spec: CommandSpec) -> String {
        var out = "OVERVIEW: \(spec.summary)\n\nUSAGE: \(spec.usage)\n"
        if let d = spec.discussion { out += "\n" + d + "\n" }
        if let p = spec.positional {
            out += "\nARGUMENTS:\n" + row(p.name, p.help)
        }
        if !spec.options.isEmpty {
            out += "\nOPTIONS:\n"
            for o in spec.options {
                var help = o.help
                if let choices = o.choices { help += " (\(choices.joined(separator: "|")))" }
                if let d = o.defaultText { help += " [default: \(d)]" }
                if o.repeatable { help += " [repeatable]" }
                out += row(o.displayName, help)
            }
        }
        out += row("-h, --help", "Show this help.")
        if !spec.examples.isEmpty {
            out += "\nEXAMPLES:\n"
            for e in spec.examples { out += "  # \(e.explanation)\n  \(e.command)\n\n" }
            out.removeLast()
        }
        return out
    }

    private static func row(_ left: String, _ right: String) -> String {
        let width = 28
        let pad = left.count < width - 2 ? String(repeating: " ", count: width - 2 - left.count) : "\n" + String(repeating: " ", count: width)
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
