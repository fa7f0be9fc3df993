import Foundation
import Testing

@testable import TimelineKit

@Suite("status vocabulary")
struct StatusVocabularyTests {
    let words = StatusVocabulary()

    /// Expected by hand from the matching rules in `status(for:)`.
    @Test(
        "whole words, phrases by their first words, camel-case codes, a bracketed mark, Chinese phrases"
    )
    func phrases() {
        #expect(words.status(for: "REVERTED") == .cancelled)
        #expect(words.status(for: "Out For Delivery Today") == .processing)
        #expect(words.status(for: "Delivered, In/At Mailbox") == .completed)
        #expect(
            words.status(for: "Shipper created a label, UPS has not received the package yet. ")
                == .pending)
        #expect(words.status(for: "OutForDelivery") == .processing)
        #expect(words.status(for: "InfoReceived") == .pending)
        #expect(words.status(for: "pre-transit") == .pending)
        #expect(words.status(for: "(删除)等待出库") == .processing)
        #expect(words.status(for: "卖家已发货，等待买家确认") == .processing)
        // 退款成功 holds 成功; the longer words are the ones meant (部分退款 and 退款成功 agree).
        #expect(words.status(for: "部分退款成功") == .refunded)
        // A word before a status may turn it round; two statuses that disagree say nothing.
        #expect(words.status(for: "not delivered") == nil)
        #expect(words.status(for: "已发货已取消") == nil)
        #expect(words.status(for: "NY") == nil)
        #expect(words.status(for: "") == nil)
    }

    @Test("docs/mapping.md lists exactly the built-in words")
    func documented() throws {
        for (status, list) in StatusVocabulary.builtIn {
            #expect(
                try documentedWords(status.rawValue, in: "mapping.md") == list,
                "docs/mapping.md's row for \(status.rawValue)")
        }
    }
}

@Suite("direction vocabulary")
struct DirectionVocabularyTests {
    @Test("words in any case; --direction-map adds and overrides; a bad spec is a usage error")
    func words() throws {
        var words = DirectionVocabulary()
        #expect(
            words.direction(for: "Bij") == .income && words.direction(for: " AF ") == .expense
                && words.direction(for: "不计收支") == .neutral)
        #expect(words.direction(for: "Gutschrift") == nil)
        try words.add("Gutschrift=in")
        try words.add("bij=neutral")
        #expect(
            words.direction(for: "gutschrift") == .income && words.direction(for: "Bij") == .neutral
        )
        #expect(throws: TimelineError.self) { try words.add("Lastschrift=down") }
    }

    @Test("docs/mapping.md lists exactly the built-in direction words")
    func documented() throws {
        for (direction, list) in DirectionVocabulary.builtIn {
            #expect(
                try documentedWords(direction.rawValue, in: "mapping.md") == list,
                "docs/mapping.md's row for \(direction.rawValue)")
        }
    }
}
