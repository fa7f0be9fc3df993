import Testing

@testable import TimelineKit

/// What an input is before it is read. Expected values by hand; the GB18030 bytes are
/// Python's `'交易时间,交易对方,金额\n…'.encode('gb18030')`.
@Suite("Input probe")
struct InputProbeTests {
    static func probe(
        _ name: String, _ bytes: [UInt8], configure: (inout ReadOptions) -> Void = { _ in }
    ) throws(TimelineError) -> (probe: InputProbe, notes: [String]) {
        var options = ReadOptions()
        configure(&options)
        var notes: [String] = []
        let probe = try InputProbe(
            InputReader(name: name, bytes: bytes), options: options, verbose: true,
            onDiagnostic: { notes.append($0.message) })
        return (probe, notes)
    }

    static let gb18030: [UInt8] = [
        0xBD, 0xBB, 0xD2, 0xD7, 0xCA, 0xB1, 0xBC, 0xE4, 0x2C, 0xBD, 0xBB, 0xD2, 0xD7, 0xB6, 0xD4,
        0xB7, 0xBD, 0x2C, 0xBD, 0xF0, 0xB6, 0xEE, 0x0A, 0x32, 0x30, 0x32, 0x34, 0x2D, 0x30, 0x36,
        0x2D, 0x31, 0x32, 0x20, 0x30, 0x38, 0x3A, 0x30, 0x30, 0x3A, 0x30, 0x30, 0x2C, 0xC8, 0xF0,
        0xD0, 0xD2, 0xBF, 0xA7, 0xB7, 0xC8, 0x2C, 0x2D, 0x31, 0x38, 0x2E, 0x35, 0x30, 0x0A, 0x32,
        0x30, 0x32, 0x34, 0x2D, 0x30, 0x36, 0x2D, 0x31, 0x33, 0x20, 0x30, 0x39, 0x3A, 0x31, 0x30,
        0x3A, 0x30, 0x30, 0x2C, 0xD5, 0xC5, 0xC8, 0xFD, 0x2C, 0x32, 0x30, 0x30, 0x2E, 0x30, 0x30,
        0x0A,
    ]

    @Test("a legacy encoding is found from the bytes, said in a note, and the text read in it")
    func legacyEncoding() throws {
        let (probe, notes) = try Self.probe("bill.csv", Self.gb18030)
        #expect(probe.encoding == .gb18030)
        #expect(probe.format.id == "csv")
        #expect(notes.first?.hasPrefix("reading as GB18030") == true)
        // The encoding named wins, with no note.
        let named = try Self.probe("bill.csv", Self.gb18030) { $0.encoding = .latin1 }
        #expect(named.probe.encoding == .latin1)
        #expect(!named.notes.contains { $0.hasPrefix("reading as GB18030") })
    }

    @Test("a ZIP archive is binary by its first bytes, whatever its name, and not converted")
    func binaryByContent() throws {
        let zip: [UInt8] = [0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 0xC8, count: 60)
        let (probe, notes) = try Self.probe("export.bin", zip)
        #expect(probe.format.id == "xlsx")
        #expect(probe.encoding == .utf8)
        #expect(notes == ["reading as 'xlsx' (detected from the content)"])
    }

    @Test("the extension names the format; content nothing recognises is refused with the way out")
    func byExtensionOrRefused() {
        let lines = Array("{\"a\":1}\n".utf8)
        #expect((try? Self.probe("events.ndjson", lines))?.probe.format.id == "ndjson")
        #expect(
            (try? Self.probe("events.ndjson", lines))?.notes == [
                "reading as 'ndjson' (from the file extension)"
            ])
        #expect(throws: TimelineError.self) {
            try Self.probe("notes", Array("just words\n".utf8))
        }
        do {
            _ = try Self.probe("notes", Array("just words\n".utf8))
        } catch {
            #expect(error.kind == .usage)
            #expect(error.diagnostic.message.hasPrefix("cannot tell the format of 'notes'"))
        }
    }
}
