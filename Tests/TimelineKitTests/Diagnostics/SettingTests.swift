import Foundation
import Testing

@testable import TimelineKit

/// Messages name a setting once and are rendered for their reader: flags for the command
/// line, properties for the library. Expected texts are written by hand from the public API
/// (`ReadOptions`, `ConvertOptions`) and the command line's flags.
@Suite("Setting: messages name settings as their reader knows them")
struct SettingTests {
    @Test("a setting, with and without a value, for each reader")
    func rendering() {
        let cases: [(String, String, String)] = [
            (
                "pass \(.assumeZone, "ZONE")", "pass --assume-zone ZONE",
                "pass ReadOptions.assumedZone = ZONE"
            ),
            (
                "name it with \(.map, "start=Date")", "name it with --map start=Date",
                "name it with ReadOptions.fieldMapping.map(.start, to: \"Date\")"
            ),
            (
                "resolve it with \(.abbrev, "CST=Asia/Shanghai")",
                "resolve it with --abbrev CST=Asia/Shanghai",
                "resolve it with ReadOptions.zoneAbbreviations[\"CST\"] = \"Asia/Shanghai\""
            ),
            (
                "e.g. \(.dateFormat, "'dd/MM/yyyy HH:mm'")",
                "e.g. --date-format 'dd/MM/yyyy HH:mm'",
                "e.g. ReadOptions.addDateFormat(\"dd/MM/yyyy HH:mm\")"
            ),
            (
                "pass \(.dayFirst) or \(.monthFirst)", "pass --day-first or --month-first",
                "pass ReadOptions.dayFirst = true or ReadOptions.dayFirst = false"
            ),
            (
                "write them with \(.rejects, "FILE")", "write them with --rejects FILE",
                "write them with ConvertOptions.onReject"
            ),
            (
                "see \(.zonesList)", "see 'timeline zones --list'",
                "see TimeZone.knownTimeZoneIdentifiers"
            ),
            // A setting only the command line offers keeps its flag for every reader.
            ("pass \(.decimalComma)", "pass --decimal-comma", "pass --decimal-comma"),
            ("no settings here", "no settings here", "no settings here"),
        ]
        for (text, commandLine, library) in cases {
            #expect(SettingText.rendered(text, for: .commandLine) == commandLine)
            #expect(SettingText.rendered(text, for: .library) == library)
        }
    }

    @Test("marks that name no setting, or are not closed, are left as they are")
    func unknownMarks() {
        let open = String(SettingText.open)
        let close = String(SettingText.close)
        for text in [
            "a \(open)no-such-flag\(close) b", "a \(open)assume-zone", "\(close)\(open)",
        ] {
            #expect(SettingText.rendered(text, for: .commandLine) == text)
            #expect(SettingText.rendered(text, for: .library) == text)
        }
        #expect(
            SettingText.rendered("\(open)zone\(close)\(open)x\(close)", for: .commandLine)
                == "--zone\(open)x\(close)")
    }

    @Test("the command line spells every setting as its flag")
    func flags() {
        for setting in Setting.allCases where setting != .zonesList {
            #expect(setting.flag == "--" + setting.rawValue)
            #expect(!setting.rawValue.contains(" "))
        }
    }

    @Test("a diagnostic's public message and notes name library properties")
    func diagnostic() {
        let d = Diagnostic(
            .error, "no zone; pass \(.assumeZone, "ZONE")", notes: ["or \(.map, "zone=TZ")"])
        #expect(d.message == "no zone; pass ReadOptions.assumedZone = ZONE")
        #expect(d.notes == ["or ReadOptions.fieldMapping.map(.zone, to: \"TZ\")"])
        #expect(d.message(for: .commandLine) == "no zone; pass --assume-zone ZONE")
        #expect(d.notes(for: .commandLine) == ["or --map zone=TZ"])
    }

    @Test("a rejected record read through the library names the property, not the flag")
    func rejectReason() throws {
        let result = try Timeline.read(
            .string("time,title\n2024-06-12 08:00,placed\n", name: "t.csv"), options: ReadOptions())
        let reject = try #require(result.rejects.first)
        #expect(
            reject.reason.hasSuffix(
                "pass ReadOptions.assumedZone = ZONE (e.g. ReadOptions.assumedZone = Asia/Shanghai)"
            ))
        #expect(!reject.reason.contains("--"))
        #expect(
            reject.reason(for: .commandLine).hasSuffix(
                "pass --assume-zone ZONE (e.g. --assume-zone Asia/Shanghai)"))
    }

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/TimelineKit")

    @Test("no string in the library spells a setting's flag: messages interpolate the setting")
    func noFlagsInLibraryStrings() throws {
        let flags = Setting.allCases.filter { $0 != .zonesList }.map(\.flag)
        var found: [String] = []
        let files = FileManager.default.enumerator(atPath: Self.sources.path)!
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        for file in files.sorted()
        where !file.hasSuffix("Setting.swift") && !file.hasSuffix("Schemas+Embedded.swift") {
            let text = try String(
                contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
                .enumerated()
            {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//"), let quote = line.firstIndex(of: "\"") else {
                    continue
                }
                let literal = line[quote...]
                for flag in flags {
                    var rest = literal[...]
                    while let range = rest.range(of: flag) {
                        let next = rest[range.upperBound...].first
                        if next == nil || !(next!.isLetter || next! == "-") {
                            found.append("\(file):\(n + 1): \(flag)")
                        }
                        rest = rest[range.upperBound...]
                    }
                }
            }
        }
        #expect(found.isEmpty, "write these as \\(.setting) in the message: \(found)")
    }
}
