/// A setting a message asks its reader to change, named as that reader knows it: a flag on
/// the command line (`--assume-zone`), a property in the library
/// (`ReadOptions.assumedZone`). Messages are written once, with the setting interpolated
/// (`"pass \(.assumeZone, "ZONE")"`), and rendered for their reader when they leave the
/// library (`MessageAudience`).
package enum Setting: String, CaseIterable, Sendable {
    case abbrev
    case assumeZone = "assume-zone"
    case columns
    case dateFormat = "date-format"
    case dayFirst = "day-first"
    case decimalComma = "decimal-comma"
    case decimalPoint = "decimal-point"
    case delimiter
    case directionMap = "direction-map"
    case encoding
    case events
    case expand
    case fields
    case finishPartitions = "finish-partitions"
    case firstRecord = "first-record"
    case from
    case group
    case headerFrom = "header-from"
    case headerLine = "header-line"
    case ignore
    case map
    case maxOccurrences = "max-occurrences"
    case maxRecordSize = "max-record-size"
    case maxTotalOccurrences = "max-total-occurrences"
    case memory
    case merge
    case monthFirst = "month-first"
    case noHeader = "no-header"
    case onGap = "on-gap"
    case onOverlap = "on-overlap"
    case records
    case rejects
    case sheet
    case sourceName = "source-name"
    case splitOut = "split-out"
    case stateOut = "state-out"
    case statusMap = "status-map"
    case strict
    case tempDir = "temp-dir"
    case verbose
    case zone
    case zonesList = "zones --list"

    /// How the command line spells it.
    package var flag: String {
        self == .zonesList ? "'timeline zones --list'" : "--" + rawValue
    }

    /// The library's name for it; nil for a setting only the command line offers, which
    /// messages name by its flag for every reader.
    package var property: String? {
        switch self {
        case .abbrev: return "ReadOptions.zoneAbbreviations"
        case .assumeZone: return "ReadOptions.assumedZone"
        case .columns: return "ReadOptions.columnNames"
        case .dateFormat: return "ReadOptions.addDateFormat(_:)"
        case .dayFirst: return "ReadOptions.dayFirst = true"
        case .delimiter: return "ReadOptions.delimiter"
        case .expand: return "ReadOptions.expandRecurrences(from:through:)"
        case .from: return "ReadOptions.format"
        case .group: return "ConvertOptions.grouping"
        case .headerLine: return "ReadOptions.headerLine"
        case .ignore: return "ignored"
        case .map: return "ReadOptions.fieldMapping"
        case .maxOccurrences: return "expandRecurrences(…, maxPerSeries:)"
        case .maxRecordSize: return "ReadOptions.maxRecordSize"
        case .maxTotalOccurrences: return "expandRecurrences(…, maxTotal:)"
        case .memory: return "ConvertOptions.sortMemory (ValidationOptions.memory)"
        case .monthFirst: return "ReadOptions.dayFirst = false"
        case .noHeader: return "ReadOptions.hasHeaderLine = false"
        case .rejects: return "ConvertOptions.onReject"
        case .strict: return "ConvertOptions.strict"
        case .tempDir: return "ConvertOptions.sortDirectory (ValidationOptions.temporaryDirectory)"
        case .verbose: return "verbose"
        case .zone: return "displayZone"
        case .zonesList: return "TimeZone.knownTimeZoneIdentifiers"
        case .decimalComma, .decimalPoint, .directionMap, .encoding, .events, .fields,
            .finishPartitions, .firstRecord, .headerFrom, .merge, .onGap, .onOverlap, .records,
            .sheet, .sourceName, .splitOut, .stateOut, .statusMap:
            return nil
        }
    }

    /// The setting named for `audience`.
    package func named(for audience: MessageAudience) -> String {
        switch audience {
        case .commandLine: return flag
        case .library: return property ?? flag
        }
    }

    /// The setting with `value`, as `audience` writes it: `--map start=Date` on the command
    /// line, `ReadOptions.fieldMapping.map(.start, to: "Date")` in the library.
    package func named(for audience: MessageAudience, value: String) -> String {
        guard audience == .library, let property else {
            return named(for: audience) + " " + value
        }
        let pair = value.split(separator: "=", maxSplits: 1).map(String.init)
        switch self {
        case .map where pair.count == 2:
            return "\(property).map(.\(pair[0]), to: \"\(pair[1])\")"
        case .abbrev where pair.count == 2:
            return "\(property)[\"\(pair[0])\"] = \"\(pair[1])\""
        case .dateFormat:
            let pattern =
                value.hasPrefix("'") && value.hasSuffix("'") && value.count > 1
                ? String(value.dropFirst().dropLast()) : value
            return "ReadOptions.addDateFormat(\"\(pattern)\")"
        case .expand, .rejects, .columns:
            return property
        default:
            return "\(property) = \(value)"
        }
    }
}

/// Who reads a message: a person at the command line, who changes flags, or a program using
/// the library, which changes properties. Public accessors (`Diagnostic.message`,
/// `Finding.message`, `RejectedRecord.reason`) render for the library; the command line
/// asks for its own rendering.
package enum MessageAudience: Sendable {
    case library
    case commandLine
}

/// Messages with settings in them: `"\(.assumeZone)"` and `"\(.map, "start=COLUMN")"` mark
/// the setting in the text, and `rendered(_:for:)` names it for the reader. The marks are
/// Unicode noncharacters (U+FDD0…U+FDD2), which no message text of its own contains; marks
/// that arrive inside quoted input name no known setting or are shown as that setting,
/// never anything else.
package enum SettingText {
    static let open = Unicode.Scalar(UInt16(0xFDD0))!
    static let valueSeparator = Unicode.Scalar(UInt16(0xFDD1))!
    static let close = Unicode.Scalar(UInt16(0xFDD2))!

    static func mark(_ setting: Setting, value: String? = nil) -> String {
        var text = String(open) + setting.rawValue
        if let value { text += String(valueSeparator) + value }
        return text + String(close)
    }

    /// `text` with each marked setting named for `audience`.
    package static func rendered(_ text: String, for audience: MessageAudience) -> String {
        guard text.unicodeScalars.contains(open) else { return text }
        var out = String.UnicodeScalarView()
        var scalars = text.unicodeScalars[...]
        while let start = scalars.firstIndex(of: open) {
            out.append(contentsOf: scalars[..<start])
            let rest = scalars[scalars.index(after: start)...]
            guard let end = rest.firstIndex(of: close) else {
                scalars = scalars[start...]
                break
            }
            let inner = rest[..<end]
            let name: Substring.UnicodeScalarView
            let value: String?
            if let separator = inner.firstIndex(of: valueSeparator) {
                name = inner[..<separator]
                value = String(inner[inner.index(after: separator)...])
            } else {
                name = inner
                value = nil
            }
            if let setting = Setting(rawValue: String(name)) {
                let named =
                    value.map { setting.named(for: audience, value: $0) }
                    ?? setting.named(for: audience)
                out.append(contentsOf: named.unicodeScalars)
            } else {
                out.append(contentsOf: scalars[start...end])
            }
            scalars = rest[rest.index(after: end)...]
        }
        out.append(contentsOf: scalars)
        return String(out)
    }
}

extension String.StringInterpolation {
    /// A setting in a message, named for its reader when the message is rendered.
    package mutating func appendInterpolation(_ setting: Setting) {
        appendLiteral(SettingText.mark(setting))
    }

    /// A setting with a value in a message (`\(.assumeZone, "Asia/Shanghai")`).
    package mutating func appendInterpolation(_ setting: Setting, _ value: String) {
        appendLiteral(SettingText.mark(setting, value: value))
    }
}
