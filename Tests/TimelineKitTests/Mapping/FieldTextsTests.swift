import Testing

@testable import TimelineKit

@Suite("FieldTexts")
struct FieldTextsTests {
    @Test("every mapped field has its own slot")
    func ordinals() {
        #expect(Set(MappedField.allCases.map(\.ordinal)) == Set(0..<MappedField.allCases.count))
        var t = FieldTexts()
        for f in MappedField.allCases { t[f] = f.rawValue }
        for f in MappedField.allCases { #expect(t[f] == f.rawValue) }
    }

    @Test(
        "a cell left in place reads as its column's text would",
        arguments: [
            "completed", "  padded\t", "=\"0123\"", "'0123", "'x", "", " ", "a b", "=1+1",
        ])
    func cellInPlace(cell: String) {
        // The oracle is `single`, the string path every importer used before cells.
        var t = FieldTexts()
        t.cellBytes = Array(("x," + cell + ",y").utf8)
        t.setCell(.status, 2..<(2 + cell.utf8.count))
        #expect(t[.status] == FieldTexts.single(cell))
        #expect(t.has(.status) == (FieldTexts.single(cell) != nil))
        #expect(t.withBytes(.status) { $0.string } == (FieldTexts.single(cell) ?? ""))
    }
}
