/// A text output's bytes as they are built, with colour when asked for.
struct TextLine {
    var bytes: [UInt8] = []
    let color: Bool

    /// A section's text, with room for about `events` events: a section of many events
    /// would otherwise copy itself a dozen times as it grows.
    init(color: Bool, events: Int = 0) {
        self.color = color
        bytes.reserveCapacity(events * 256)
    }

    mutating func append(_ text: String) { bytes.append(utf8: text) }

    /// A literal piece of markup or layout.
    mutating func append(literal: StaticString) { bytes.append(literal: literal) }

    mutating func append(_ text: String, paint: TextTimelineExporter.Paint) {
        append(color ? paint.wrap(text) : text)
    }

    mutating func spaces(_ count: Int) {
        for _ in 0..<max(0, count) { bytes.append(0x20) }
    }

    /// Each line of `text` (a detail, a place) after the timeline's line and `indent` spaces.
    mutating func appendIndented(_ text: String?, by indent: Int) {
        guard let text, !text.isEmpty else { return }
        VisibleText.forPeople(text, lineBreaks: true).withByteView { shown in
            var start = 0
            while true {
                let end = shown.firstIndex(of: 0x0A, from: start) ?? shown.count
                append("│")
                spaces(indent)
                shown[start..<end].append(to: &bytes)
                append("\n")
                guard end < shown.count else { return }
                start = end + 1
            }
        }
    }

    /// The time of day of `instant` in `zone`, `HH:mm`, as `TimelineEntry.time` writes it.
    mutating func appendTimeOfDay(_ instant: Instant, zone: ZoneRules) {
        let local = instant.local(in: zone.offset(at: instant))
        twoDigits(local.hour)
        bytes.append(UInt8(ascii: ":"))
        twoDigits(local.minute)
    }

    /// `n` (0…99) as two digits.
    mutating func twoDigits(_ n: Int) {
        bytes.append(UInt8(truncatingIfNeeded: 0x30 + n / 10))
        bytes.append(UInt8(truncatingIfNeeded: 0x30 + n % 10))
    }
}
