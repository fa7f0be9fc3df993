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
}
