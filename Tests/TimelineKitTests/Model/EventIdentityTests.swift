import Testing

@testable import TimelineKit

@Suite("Event identities")
struct EventIdentityTests {
    @Test("a generated id reads, compares and hashes as the same text given")
    func generatedEqualsGiven() {
        let generated = EventIdentity.generated(prefix: "orders.csv:", record: 12)
        #expect(generated.text == "orders.csv:12")
        #expect(generated == .given("orders.csv:12"))
        #expect(EventIdentity.given("orders.csv:12") == generated)
        #expect(generated.hashValue == EventIdentity.given("orders.csv:12").hashValue)
        #expect(generated != .given("orders.csv:13"))
        #expect(generated != .generated(prefix: "orders.csv:", record: 13))
        #expect(generated != .generated(prefix: "other.csv:", record: 12))
        // Different parts, the same text: equal, as the ids are.
        #expect(generated == .generated(prefix: "orders.csv:1", record: 2))
        for identity in [generated, .given("订单-7"), .generated(prefix: "x:", record: -3)] {
            #expect(identity.utf8CountBound >= identity.text.utf8.count)
        }
    }

    @Test("an event's id is its identity's text, and setting it gives the text")
    func eventID() {
        var event = Event(
            id: "a", start: TimeValue(date: CivilDate(year: 2024, month: 1, day: 2)!), title: "t")
        var other = event
        event.identity = .generated(prefix: "in.csv:", record: 3)
        #expect(event.id == "in.csv:3")
        other.id = "in.csv:3"
        #expect(event == other)
        #expect(Set([event, other]).count == 1)
        event.id = "b"
        #expect(event.identity == .given("b"))
    }
}
