/// `text`: a readable timeline for a terminal or an email (`TextTimelineExporter`).
enum TextFormat: FormatPlugin {
    static let id = "text"
    static let summary = "a readable plain-text timeline"
    static let extensions = ["txt"]
    static var writeOptions: [FormatOption<WriteOptions>] { TextWriteSettings.options }

    static func makeWriter(_ options: WriteOptions) -> (any TimelineExporter)? {
        var text = TextTimelineExporter.Options(now: options.now ?? Instant(seconds: 0))
        text.locale = options.locale
        text.color =
            options.text.color == .always || (options.text.color == .auto && options.terminalColors)
        text.grouping = options.grouping
        text.split = options.text.layout == .split
        return TextTimelineExporter(export: options, options: text)
    }
}

/// How the text timeline is laid out (`WriteOptions.text`).
package struct TextWriteSettings: Sendable, Hashable {
    /// One line per event (`line`), or income to the left of the line and everything else
    /// to the right (`split`).
    public enum Layout: String, Sendable, CaseIterable {
        /// Time, mark, title, amount and relative time on one line per event.
        case line
        /// Income left of the line, everything else right of it.
        case split
    }

    /// ANSI colour: when the output is a terminal that takes it (`auto`, see
    /// `WriteOptions.terminalColors`), always, or never.
    public enum Color: String, Sendable, CaseIterable {
        /// Colour when `WriteOptions.terminalColors` says the output takes it.
        case auto
        /// Always colour (ANSI escapes).
        case always
        /// Never colour.
        case never
    }

    /// How events are laid out.
    public var layout = Layout.line
    /// When to colour the status marks and headings.
    public var color = Color.auto

    /// One line per event, colour when the output is a terminal.
    public init() {}

    /// `--layout`, `--color`.
    static let options: [FormatOption<WriteOptions>] = [
        FormatOption(
            "layout",
            .value(name: "KIND", choices: Layout.allCases.map(\.rawValue), repeatable: false),
            help:
                "Text, HTML and Markdown output: 'split' puts income left of the line and everything else right, as app timelines do.",
            default: "line"
        ) { values, options throws(TimelineError) in
            options.text.layout = Layout(rawValue: values[0])!
        },
        FormatOption(
            "color",
            .value(name: "WHEN", choices: Color.allCases.map(\.rawValue), repeatable: false),
            help: "Text output: ANSI colour. NO_COLOR is respected.",
            default: "auto: only when stdout is a terminal"
        ) { values, options throws(TimelineError) in
            options.text.color = Color(rawValue: values[0])!
        },
    ]
}

private enum TextWriteSettingsKey: FormatSettingsKey {
    static let defaultValue = TextWriteSettings()
}

extension WriteOptions {
    /// How the text timeline is laid out.
    package var text: TextWriteSettings {
        get { formatSettings[TextWriteSettingsKey.self] }
        set { formatSettings[TextWriteSettingsKey.self] = newValue }
    }
}
