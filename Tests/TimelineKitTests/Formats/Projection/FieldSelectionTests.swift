import Testing

@testable import TimelineKit

/// `--fields` paths: every listed path reads, an attribute name keeps its dots, and what is
/// not a path is refused with the nearest one.
@Suite("Field selection")
struct FieldSelectionTests {
    @Test("every path help lists reads, and attributes.NAME takes the rest of the path")
    func knownPaths() throws {
        let all = try FieldSelection(FieldPath.known.joined(separator: ","))
        #expect(all.names == FieldPath.known)
        #expect(FieldPath.known.count == 7 + 3 * 8 + 4 + 2 + 2 + 4)
        #expect(FieldPath("attributes.a.b") == .attribute("a.b"))
        #expect(FieldPath("start.instant") == .timePart(.start, .instant))
        #expect(FieldPath(" id") == nil)
        let spaced = try FieldSelection("id, title")
        #expect(spaced.names == ["id", "title"])
    }

    @Test(
        "refused: unknown members, empty parts, a path twice",
        arguments: [
            ("start.day", "unknown field 'start.day'"),
            ("amount.cents", "unknown field 'amount.cents'"),
            ("id,,title", "unknown field ''"),
            ("attributes.", "unknown field 'attributes.'"),
            ("titel", "did you mean 'title'?"),
            ("id,title,id", "field 'id' is named twice"),
        ])
    func refused(list: String, message: String) {
        #expect {
            try FieldSelection(list)
        } throws: { error in
            guard let error = error as? TimelineError else { return false }
            return error.kind == .usage && error.diagnostic.message.contains(message)
        }
    }
}
