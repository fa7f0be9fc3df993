import Foundation
import Testing

/// `timeline dates` output that a column can hold: one fraction width when asked, epoch
/// numbers as integers, and a file named on the command line. Expected values by hand
/// (1718209800 is 2024-06-12T16:30:00Z).
@Suite("dates: uniform output")
struct DatesOutputTests {
    static let values = "1718209800123\n2024-06-12T16:30:00Z\n1718209800\n"

    @Test("rfc3339:3 writes three digits for every value; epoch-ms writes integers")
    func widths() throws {
        let fixed = try BinaryRunner.run(
            ["dates", "--output-format", "rfc3339:3"], stdin: Self.values)
        #expect(
            fixed.stdout
                == "2024-06-12T16:30:00.123Z\n2024-06-12T16:30:00.000Z\n2024-06-12T16:30:00.000Z\n")
        let ms = try BinaryRunner.run(
            ["dates", "--output-format", "epoch-ms"], stdin: "2024-06-12T16:30:00.123456789Z\n")
        #expect(ms.stdout == "1718209800123\n")
        let exact = try BinaryRunner.run(
            ["dates", "--output-format", "epoch-ms:6"], stdin: "2024-06-12T16:30:00.123456789Z\n")
        #expect(exact.stdout == "1718209800123.456789\n")
    }

    @Test("dates FILE reads the file; two files are refused")
    func file() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(UUID().uuidString).txt")
        try Data(Self.values.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let r = try BinaryRunner.run(["dates", url.path, "--output-format", "epoch"])
        #expect(r.status == 0)
        #expect(r.stdout == "1718209800\n1718209800\n1718209800\n")
        let two = try BinaryRunner.run(["dates", url.path, url.path])
        #expect(
            two.status == 64
                && two.stderr.contains("reads one file (or standard input); 2 were given"))
    }
}
