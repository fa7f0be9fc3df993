import Testing

@testable import TimelineKit

@Suite("Display width")
struct DisplayWidthTests {
    @Test(
        "East Asian wide characters take two columns",
        arguments: [
            ("abc", 3), ("快车", 4), ("耳机退款", 8), ("午饭AA", 6), ("ＡＢ", 4), ("한국", 4), ("café", 4),
            ("😀", 2),
        ])
    func widths(text: String, width: Int) {
        #expect(DisplayWidth.of(text) == width)
    }
}
