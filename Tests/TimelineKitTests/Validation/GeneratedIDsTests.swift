import Testing

@testable import TimelineKit

/// The ids importers give records without one (`x.csv:3`) are compared only where they can
/// equal another id (`GeneratedIDs`): the duplicate-id finding must be the one a comparison
/// of every id gives, which these cases work out by hand.
@Suite("Generated ids in the duplicate-id check")
struct GeneratedIDsTests {
    /// Events of `file` with the ids importers give records `records`.
    static func generated(_ file: String, _ records: [Int]) throws -> [Event] {
        try records.map { r in
            try ValidatorTests.event(
                Event.generatedID(prefix: Event.generatedIDPrefix(file: file), record: r),
                "2024-06-12T08:00:00+08:00", file: file, line: r)
        }
    }

    @Test("one file read once: no generated id repeats")
    func oneFile() throws {
        #expect(
            try ValidatorTests.run(Self.generated("in/x.csv", Array(1...50)))[.duplicateID] == nil)
    }

    @Test("two files with one base name: their records' ids collide, record by record")
    func sharedBaseName() throws {
        let found = try ValidatorTests.run(
            try Self.generated("a/x.csv", [1, 2, 3]) + Self.generated("b/x.csv", [2, 3, 4]))[
                .duplicateID]
        #expect(found?.count == 4)  // x.csv:2 and x.csv:3, twice each
        #expect(found?.message.contains("'x.csv:2' ×2, 'x.csv:3' ×2") == true)
    }

    @Test("one file read twice: its records start again, and every id repeats")
    func readTwice() throws {
        let found = try ValidatorTests.run(
            try Self.generated("x.csv", [1, 2]) + Self.generated("x.csv", [1, 2]))[.duplicateID]
        #expect(found?.count == 4)
    }

    @Test("a source id that reads as another file's generated id")
    func sourceIDLikeAGeneratedOne() throws {
        let source = try ValidatorTests.event(
            "x.csv:3", "2024-06-12T09:00:00+08:00", file: "other.csv", line: 7)
        let found = try ValidatorTests.run(try Self.generated("x.csv", [1, 2, 3, 4]) + [source])[
            .duplicateID]
        #expect(found?.count == 2)
        #expect(found?.examples.map(\.file) == ["x.csv", "other.csv"])
        // A source id that only starts like one names no record of the file: not a duplicate.
        let near = try ValidatorTests.event(
            "x.csv:30", "2024-06-12T09:00:00+08:00", file: "other.csv", line: 7)
        #expect(
            try ValidatorTests.run(try Self.generated("x.csv", [1, 2, 3]) + [near])[.duplicateID]
                == nil)
    }
}
