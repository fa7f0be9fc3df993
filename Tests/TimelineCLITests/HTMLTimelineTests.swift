import Foundation
import Testing

/// The HTML page's own guarantees; scripts/check-html renders it in headless Chromium.
@Suite("HTML timeline")
struct HTMLTimelineTests {
    @Test("self-contained, escaped, months as open details, the zone stated")
    func page() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let hostile = dir.appendingPathComponent("h.ndjson")
        try
            (#"{"id":"x","start":{"date":"2024-06-12","basis":"date"},"title":"<script>alert(1)</script>","detail":"a & \"b\" 'c'"}"#
            + "\n")
            .write(to: hostile, atomically: true, encoding: .utf8)
        let r = try BinaryRunner.run([
            "convert", "samples/orders.csv", hostile.path, "--to", "html", "--zone",
            "Asia/Shanghai", "-q",
        ])
        #expect(r.status == 0)
        let page = r.stdout
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(!page.lowercased().contains("<script"))
        #expect(!page.contains("http://") && !page.contains("https://") && !page.contains("src="))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(page.contains("a &amp; &quot;b&quot; &#39;c&#39;"))
        #expect(page.contains("<details open class=\"month\"><summary><span>June 2024</span>"))
        #expect(page.contains("times in <strong>Asia/Shanghai</strong>"))
        // Every sample title is on the page, each once per event (12 orders + 1).
        #expect(page.components(separatedBy: "<li class=\"node").count - 1 == 13)
        #expect(page.contains("<span class=\"amount income\">+¥199.00</span>"))
    }
}
