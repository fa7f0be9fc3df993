import Testing

@testable import TimelineKit

@Suite("CSV reader (RFC 4180, streaming)")
struct CSVReaderTests {
    /// Every record (or error message) of `text`, read with chunks of `chunk` bytes.
    static func read(_ text: String, chunk: Int? = nil, delimiter: UInt8? = nil) throws -> [String]
    {
        try read(Array(text.utf8), chunk: chunk, delimiter: delimiter)
    }

    static func read(_ bytes: [UInt8], chunk: Int? = nil, delimiter: UInt8? = nil) throws
        -> [String]
    {
        let reader = try CSVReader(
            input: InputReader(name: "t.csv", bytes: bytes, chunkSize: chunk), delimiter: delimiter)
        var out: [String] = []
        while let r = try reader.next() {
            switch r {
            case .success(let rec): out.append("\(rec.line):" + rec.fields.joined(separator: "|"))
            case .failure(let e):
                out.append("\(e.line)!\(SettingText.rendered(e.message, for: .commandLine))")
            }
        }
        return out
    }

    @Test(
        "RFC 4180 cases, identical at every chunk size",
        arguments: [
            ("a,b\n1,2\n", ["1:a|b", "2:1|2"]),
            ("a,b\r\n\"x, y\",\"say \"\"hi\"\"\"\r\n", ["1:a|b", "2:x, y|say \"hi\""]),
            ("a,b\n\"line1\nline2\",z\nlast,row", ["1:a|b", "2:line1\nline2|z", "4:last|row"]),
            ("a,b\r1,2\r3,4", ["1:a|b", "2:1|2", "3:3|4"]),
            ("\u{FEFF}a;b\n1;2\n", ["1:a|b", "2:1|2"]),
            ("a\tb\n1\t2\n", ["1:a|b", "2:1|2"]),
            ("a|b\n1|2\n", ["1:a|b", "2:1|2"]),
            ("a,b\n,\n\"\",\"\"\n", ["1:a|b", "2:|", "3:|"]),
            (
                "a,b\n\"open,2\n",
                ["1:a|b", "2!unterminated quoted field (a '\"' opened on line 2 is never closed)"]
            ),
            (
                "a,b\n\"x\"y,2\n3,4\n",
                ["1:a|b", "2!text after a closing quote in field 1", "3:3|4"]
            ),
            ("a,b\nit\"s,2\n", ["1:a|b", "2:it\"s|2"]),
        ])
    func rfc4180(text: String, expected: [String]) throws {
        for chunk in [nil, 1, 2, 3, 5, 7, 64] {
            #expect(
                try Self.read(text, chunk: chunk) == expected,
                "chunk \(chunk.map(String.init) ?? "whole")")
        }
    }

    @Test("invalid UTF-8 makes that record invalid, with the byte offset; the next record is fine")
    func invalidUTF8() throws {
        let bytes = Array("a,b\n1,".utf8) + [0xFF, 0xFE] + Array("\n3,4\n".utf8)
        let out = try Self.read(bytes, chunk: 3)
        #expect(
            out == [
                "1:a|b",
                "2!invalid UTF-8 at byte offset 6 (field 2); pass --encoding if the file is not UTF-8",
                "3:3|4",
            ])
        // In a quoted field after a doubled quote, the offset is the byte's place in the file
        // (counted by hand: "a,b\n" is bytes 0-3, the opening quote 4, x 5, the `""` 6-7, 0xFF 8).
        let quoted = Array("a,b\n\"x\"\"".utf8) + [0xFF] + Array("y\",2\n3,4\n".utf8)
        for chunk in [nil, 1, 3] {
            #expect(
                try Self.read(quoted, chunk: chunk) == [
                    "1:a|b",
                    "2!invalid UTF-8 at byte offset 8 (field 1); pass --encoding if the file is not UTF-8",
                    "3:3|4",
                ])
        }
    }

    @Test("a 1 MB field and a 100,000-column header are read, not refused")
    func large() throws {
        let big = String(repeating: "x", count: 1 << 20)
        let out = try Self.read("a,b\n\"\(big)\",2\n", chunk: 65_536)
        #expect(out.count == 2 && out[1].count == (1 << 20) + 4)
        let header = (1...100_000).map { "c\($0)" }.joined(separator: ",")
        let wide = try Self.read(header + "\n")
        #expect(wide.first?.split(separator: "|").count == 100_000)
    }

    @Test("delimiter detection ignores delimiters inside quotes")
    func detection() {
        #expect(
            CSVReader.detectDelimiter(ArraySlice("\"a,b,c\";d;e\n1,2,3".utf8)) == UInt8(ascii: ";"))
        #expect(CSVReader.detectDelimiter(ArraySlice("only".utf8)) == UInt8(ascii: ","))
    }
}

@Suite("CSV block splitter (records cut for worker threads)")
struct CSVBlockSplitterTests {
    /// The header read by the streaming reader, then every block cut by the splitter read by
    /// a block reader: the same "line:fields" strings as `CSVReaderTests.read`, plus each
    /// block's count of records before it checked against the records actually read. With
    /// `inPlace`, records are read as cells (`CSVReader.yieldsCells`) and their fields made
    /// from them.
    static func readInBlocks(_ text: String, chunk: Int?, blockSize: Int, inPlace: Bool = false)
        throws -> [String]
    {
        let input = InputReader(name: "t.csv", bytes: Array(text.utf8), chunkSize: chunk)
        let stream = try CSVReader(input: input, delimiter: nil)
        var out: [String] = []
        guard case .success(let header)? = try? stream.next() else { return out }
        out.append("\(header.line):" + header.fields.joined(separator: "|"))
        var splitter = CSVBlockSplitter(continuing: stream, input: input, targetSize: blockSize)
        var records = 0
        while let block = try splitter.next() {
            #expect(block.recordsBefore == records, "block at line \(block.firstLine)")
            let reader = CSVReader(
                block: block.bytes, delimiter: stream.delimiter, firstLine: block.firstLine,
                byteOffset: block.byteOffset)
            reader.yieldsCells = inPlace
            while let r = try reader.next() {
                switch r {
                case .success(var rec):
                    if !rec.cells.isEmpty {
                        #expect(rec.fields.isEmpty)
                        rec.fields = rec.cells.map {
                            TableColumnPlan.text(of: $0, in: block.cellBytes)
                        }
                    }
                    if !rec.isBlank { records += 1 }
                    out.append("\(rec.line):" + rec.fields.joined(separator: "|"))
                case .failure(let e):
                    records += 1
                    out.append("\(e.line)!\(e.message)")
                }
            }
        }
        return out
    }

    @Test(
        "Blocks read like the stream, at every block and chunk size",
        arguments: [
            // The hand-checked cases of the streaming reader's RFC 4180 test …
            ("a,b\n1,2\n", ["1:a|b", "2:1|2"]),
            ("a,b\r\n\"x, y\",\"say \"\"hi\"\"\"\r\n", ["1:a|b", "2:x, y|say \"hi\""]),
            ("a,b\n\"line1\nline2\",z\nlast,row", ["1:a|b", "2:line1\nline2|z", "4:last|row"]),
            ("a,b\r1,2\r3,4", ["1:a|b", "2:1|2", "3:3|4"]),
            ("a,b\n,\n\"\",\"\"\n", ["1:a|b", "2:|", "3:|"]),
            (
                "a,b\n\"open,2\n",
                ["1:a|b", "2!unterminated quoted field (a '\"' opened on line 2 is never closed)"]
            ),
            (
                "a,b\n\"x\"y,2\n3,4\n",
                ["1:a|b", "2!text after a closing quote in field 1", "3:3|4"]
            ),
            ("a,b\nit\"s,2\n", ["1:a|b", "2:it\"s|2"]),
            // … and boundaries a splitter can get wrong: blank lines (not records), a lone `""`
            // line, CRLF inside quotes, a quote opening only at a field start, a CR at the end.
            ("a,b\n\n1,2\n\"\"\n\n3,4\r\n", ["1:a|b", "2:", "3:1|2", "4:", "5:", "6:3|4"]),
            (
                "a,b\r\n\"p\r\nq\",\"\"\"\"\r\nx\"\ny\",z\r",
                ["1:a|b", "2:p\r\nq|\"", "4:x\"", "5:y\"|z"]
            ),
            ("a,b\n\"\",\"\"\"\"\n1,\"2\"\r", ["1:a|b", "2:|\"", "3:1|2"]),
            // A record that is not ASCII is read into strings, its neighbours in place.
            ("a,b\nx,1\né,\"ü,\"\"\"\ny,2\n", ["1:a|b", "2:x|1", "3:é|ü,\"", "4:y|2"]),
        ])
    func sameAsStream(text: String, expected: [String]) throws {
        // Blank and `""` lines are dropped by the importer, not the reader: the expected
        // lists above show them as empty records.
        for chunk in [nil, 1, 3, 7] {
            for blockSize in [1, 2, 5, 16, 1 << 17] {
                for inPlace in [false, true] {
                    #expect(
                        try Self.readInBlocks(
                            text, chunk: chunk, blockSize: blockSize, inPlace: inPlace)
                            == expected,
                        "chunk \(chunk.map(String.init) ?? "whole"), block \(blockSize), in place \(inPlace)"
                    )
                }
            }
        }
    }
}

extension CSVBlockSplitterTests {
    /// The oracle is the streaming reader (whose RFC 4180 cases are checked by hand above):
    /// cut into blocks, random texts of quotes, delimiters, line ends and spaces must read the
    /// same, with the same record counts before each block.
    @Test("random quotes, delimiters and line ends read the same in blocks as streamed")
    func randomTexts() throws {
        var rng = SplitMix64(seed: 0xC5F)
        let alphabet = Array("ab,\"\n\r ".utf8)
        for round in 0..<400 {
            let body = (0..<Int.random(in: 0...48, using: &rng)).map { _ in
                alphabet.randomElement(using: &rng)!
            }
            let text = "h1,h2\n" + String(decoding: body, as: UTF8.self)
            let streamed = try CSVReaderTests.read(text)
            for blockSize in [1, 3, 8, 1 << 17] {
                let chunk = [nil, 1, 5][round % 3]
                #expect(
                    try Self.readInBlocks(text, chunk: chunk, blockSize: blockSize) == streamed,
                    "\(text.debugDescription), block \(blockSize)")
                #expect(
                    try Self.readInBlocks(text, chunk: chunk, blockSize: blockSize, inPlace: true)
                        == streamed,
                    "\(text.debugDescription), block \(blockSize), in place")
            }
        }
    }
}
