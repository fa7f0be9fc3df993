import TimelineKit

/// What the parser and the help need to know of an option: its names, whether it takes a
/// value, the default to show and the values it accepts.
struct OptionSpec: Sendable {
    /// The long name without dashes (`assume-zone`).
    var name: String
    var short: Character?
    /// `ZONE`, `FILE`, …; nil for a flag.
    var valueName: String?
    var help: String
    /// The default as help shows it; nil when there is none to show.
    var defaultText: String?
    var repeatable = false
    /// The accepted values, checked by the parser and listed in errors and help.
    var choices: [String]?

    var displayName: String {
        let long = "--\(name)" + (valueName.map { " \($0)" } ?? "")
        return short.map { "-\($0), \(long)" } ?? long
    }
}

/// A usage error: exit 64, with the usage line and a pointer to `--help`.
struct UsageError: Error {
    var message: String
}

/// An option declared once: its spec and how the texts given become its typed value.
protocol OptionDeclaration: Sendable {
    var spec: OptionSpec { get }
    /// The typed value of the texts given (one per use; empty strings for a flag).
    func value(of texts: [String]) throws(UsageError) -> any Sendable
}

/// An option with a typed value: `Option<SortOrder>`, `Option<String?>`, `Option<Bool>`
/// (a flag). `initial` is its value when it is not given.
struct Option<Value: Sendable>: OptionDeclaration {
    let spec: OptionSpec
    let initial: Value
    let convert: @Sendable ([String]) throws(UsageError) -> Value

    func value(of texts: [String]) throws(UsageError) -> any Sendable { try convert(texts) }
}

extension Option where Value == Bool {
    /// A flag: true when given.
    static func flag(_ name: String, short: Character? = nil, help: String) -> Option {
        Option(
            spec: OptionSpec(name: name, short: short, valueName: nil, help: help), initial: false
        ) { _ throws(UsageError) in true }
    }
}

extension Option where Value == String? {
    /// A text value, nil when not given.
    static func text(
        _ name: String, short: Character? = nil, _ valueName: String, help: String,
        default defaultText: String? = nil
    ) -> Option {
        Option(
            spec: OptionSpec(
                name: name, short: short, valueName: valueName, help: help, defaultText: defaultText
            ), initial: nil
        ) {
            texts throws(UsageError) in texts.last
        }
    }
}

extension Option where Value == [String] {
    /// A repeatable text value: every use, in order.
    static func list(
        _ name: String, _ valueName: String, help: String, default defaultText: String? = nil
    ) -> Option {
        Option(
            spec: OptionSpec(
                name: name, valueName: valueName, help: help, defaultText: defaultText,
                repeatable: true), initial: []
        ) {
            texts throws(UsageError) in texts
        }
    }
}

extension Option where Value: CaseIterable & RawRepresentable, Value.RawValue == String {
    /// One of a closed set of values, with a default.
    static func choice(
        _ name: String, _ valueName: String, help: String, default initial: Value,
        defaultText: String? = nil
    ) -> Option {
        let spec = OptionSpec(
            name: name, valueName: valueName, help: help,
            defaultText: defaultText ?? initial.rawValue,
            choices: Value.allCases.map(\.rawValue))
        return Option(spec: spec, initial: initial) { texts throws(UsageError) in
            Value(rawValue: texts.last!)!
        }
    }
}

extension Option {
    /// A value made from its text by `parse`, which throws a usage error for a text it
    /// cannot take.
    static func value(
        _ name: String, short: Character? = nil, _ valueName: String, help: String, initial: Value,
        default defaultText: String? = nil,
        choices: [String]? = nil, parse: @escaping @Sendable (String) throws(UsageError) -> Value
    ) -> Option {
        let spec = OptionSpec(
            name: name, short: short, valueName: valueName, help: help, defaultText: defaultText,
            choices: choices)
        return Option(spec: spec, initial: initial) { texts throws(UsageError) in
            try parse(texts.last!)
        }
    }
}

/// An option a format declares (`--delimiter` for CSV, `--expand` for ICS), offered as it
/// is: its value is the texts given, applied to the reading or writing options by the
/// format's own code.
struct FormatOptionDeclaration<Target>: OptionDeclaration {
    let option: FormatOption<Target>

    var spec: OptionSpec {
        switch option.kind {
        case .flag:
            return OptionSpec(
                name: option.name, valueName: nil,
                help: SettingText.rendered(option.help, for: .commandLine),
                defaultText: option.defaultText)
        case .value(let valueName, let choices, let repeatable):
            return OptionSpec(
                name: option.name, valueName: valueName,
                help: SettingText.rendered(option.help, for: .commandLine),
                defaultText: option.defaultText, repeatable: repeatable,
                choices: choices)
        }
    }

    func value(of texts: [String]) throws(UsageError) -> any Sendable { texts }

    /// Applies the option to `target` when it was given.
    func apply(_ arguments: ParsedArguments, to target: inout Target) throws(TimelineError) {
        guard let texts = arguments.texts[option.name] else { return }
        try option.apply(option.kind.isFlag ? [] : texts, &target)
    }
}

extension FormatOption.Kind {
    var isFlag: Bool {
        if case .flag = self { return true }
        return false
    }
}

/// A set of options a command declares as stored properties (`let sort = Option…`): they
/// are found by reflection in declaration order, which is also their order in help. A
/// property that is itself an `OptionGroup` contributes its options there; one that is an
/// array of declarations (the formats' options) contributes each.
protocol OptionGroup: Sendable {
    init()
}

extension OptionGroup {
    var declarations: [any OptionDeclaration] {
        Mirror(reflecting: self).children.flatMap { child -> [any OptionDeclaration] in
            if let declaration = child.value as? any OptionDeclaration { return [declaration] }
            if let group = child.value as? any OptionGroup { return group.declarations }
            if let list = child.value as? [any OptionDeclaration] { return list }
            return []
        }
    }
}

/// What the parser made of a command line: each option's typed value, the texts given,
/// and the positional arguments.
struct ParsedArguments {
    var values: [String: any Sendable] = [:]
    var texts: [String: [String]] = [:]
    var positionals: [String] = []

    /// The value of `option`: as given, else its initial value.
    subscript<Value>(_ option: Option<Value>) -> Value {
        values[option.spec.name].map { $0 as! Value } ?? option.initial
    }

    func isGiven(_ option: some OptionDeclaration) -> Bool { texts[option.spec.name] != nil }
}

/// A command's parsed arguments, read through its option group's declarations:
/// `arguments[\.sort]`.
struct Arguments<Group: OptionGroup> {
    let group = Group()
    let parsed: ParsedArguments

    subscript<Value>(_ path: KeyPath<Group, Option<Value>>) -> Value {
        parsed[group[keyPath: path]]
    }

    func isGiven<Value>(_ path: KeyPath<Group, Option<Value>>) -> Bool {
        parsed.isGiven(group[keyPath: path])
    }

    var positionals: [String] { parsed.positionals }
}

/// A size with an optional unit: `256MB`, `1.5GB`, `512k`, `1048576` (bytes); units are
/// powers of 1024.
enum ByteSize {
    static func parse(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces).uppercased()
        let digits = t.prefix { $0.isNumber || $0 == "." }
        guard let number = Double(digits), number >= 0 else { return nil }
        let unit = t.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        let scale: Double
        switch unit {
        case "", "B": scale = 1
        case "K", "KB", "KIB": scale = 1024
        case "M", "MB", "MIB": scale = 1024 * 1024
        case "G", "GB", "GIB": scale = 1024 * 1024 * 1024
        default: return nil
        }
        let bytes = number * scale
        return bytes < Double(Int.max / 2) ? Int(bytes) : nil
    }
}
