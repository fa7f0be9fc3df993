import Foundation
import Testing

/// The Markdown timeline, read back through an independent CommonMark parser
/// (`markdown-it-py`, scripts/render-markdown.py): what a reader sees, not our bytes.
@Suite("markdown timeline", .serialized)
struct MarkdownTimelineTests {
    struct Rendered {
        var headings: [String]
        var items: [(text: String, nested: [String])]
        var html: String
    }

    static func render(_ markdown: String) throws -> Rendered {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("timeline.md")
        try Data(markdown.utf8).write(to: file)
        let (data, succeeded) = try BinaryRunner.python("scripts/render-markdown.py", [file.path])
        #expect(succeeded, "markdown-it-py could not render the output")
        let json = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let items = (json["items"] as! [[String: Any]]).map {
            ($0["text"] as! String, $0["nested"] as! [String])
        }
        return Rendered(
            headings: json["headings"] as! [String], items: items, html: json["html"] as! String)
    }

    @Test(
        "the order sample: one heading per day in Shanghai, one item per event as in the text timeline"
    )
    func orders() throws {
        let common = [
            "convert", "samples/orders.csv", "--zone", "Asia/Shanghai", "--now",
            "2024-06-13T20:00:00+08:00", "-q",
        ]
        let r = try BinaryRunner.run(common + ["--to", "markdown"])
        #expect(r.status == 0, "\(r.stderr)")
        let rendered = try Self.render(r.stdout)
        // The days of the hand-checked text golden file (Fixtures/text/orders-en.txt).
        #expect(
            rendered.headings == [
                "Tue 11 Jun 2024", "Wed 12 Jun 2024 · yesterday", "Thu 13 Jun 2024 · today",
                "Fri 14 Jun 2024 · tomorrow", "Sat 15 Jun 2024",
            ])
        // Every event line of that golden file (time, mark, title) starts an item, in order.
        let golden = try String(
            contentsOf: BinaryRunner.packageRoot.appendingPathComponent(
                "Tests/TimelineCLITests/Fixtures/text/orders-en.txt"), encoding: .utf8)
        let lines = golden.split(separator: "\n").filter {
            $0.hasPrefix("│ ") && $0.dropFirst(2).first?.isNumber == true
        }.map { line in
            // "│ 23:42  ○ Order placed" → "23:42 ○ Order placed" (the title, without amount or relative time)
            let parts = line.dropFirst(2).split(
                separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            return "\(parts[0]) \(parts[1]) " + parts[2].components(separatedBy: "  ")[0]
        }
        #expect(lines.count == 12)
        #expect(rendered.items.count == lines.count)
        for (item, line) in zip(rendered.items, lines) {
            #expect(item.text.hasPrefix(line), "\(item.text) vs \(line)")
        }
        // Details are nested below their event; amounts and relative times are on its line.
        #expect(rendered.items[0].nested == ["Web shop, cart of 3 items"])
        #expect(rendered.items[1].text == "23:44 ✔ Payment received · +¥199.00")
        #expect(rendered.items[3].text == "21:05 ● In transit: Shenzhen hub (22 hours ago)")
    }

    @Test("source text that looks like Markdown or HTML shows as written")
    func escaping() throws {
        let titles = [
            "*bold* _em_ `code`", "[link](http://example.com) ![img](x.png)",
            "<script>alert(1)</script>", "# not a heading",
            "back\\slash | pipe ~tilde~ &amp;", "1. not a list", "- not an item either",
        ]
        var csv = "time,title,detail\n"
        for (i, t) in titles.enumerated() {
            csv +=
                "2024-06-12T0\(i):00:00Z,\"\(t)\",\"- not an item\n> not a quote\n2) nor this\"\n"
        }
        let r = try BinaryRunner.run(
            ["convert", "--from", "csv", "--to", "markdown", "-q"], stdin: csv)
        #expect(r.status == 0, "\(r.stderr)")
        let rendered = try Self.render(r.stdout)
        #expect(
            rendered.items.map { String($0.text.split(separator: " ", maxSplits: 2)[2]) } == titles)
        #expect(
            rendered.items.allSatisfy {
                $0.nested == ["- not an item", "> not a quote", "2) nor this"]
            })
        #expect(rendered.html.components(separatedBy: "<h1").count == 2)  // our own title only
        for tag in [
            "<script", "<a ", "<img", "<em>", "<strong>alert", "<code>", "<blockquote", "<ol",
        ] {
            #expect(!rendered.html.contains(tag), "rendered \(tag)")
        }
    }
}
