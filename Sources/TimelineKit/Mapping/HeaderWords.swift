/// What a header's words say of a time column, in the languages of the toolkit's users.
enum HeaderWords {
    /// The header names the moment a span began: start, started, begin (Apple Health's
    /// `startDate` beside its `creationDate`, Revolut's `Started Date`).
    static let start = 0
    /// The header names when the record was made: created, placed, order, sale, 创建, 下单.
    static let creation = 1
    /// The header names a time: date, time, at, timestamp, 时间, 日期, Datum, fecha, 日付, 날짜 …
    static let time = 2
    /// The header says nothing of time.
    static let none = 3

    static let startWords = ["start", "started", "begin", "began", "开始", "開始", "시작"]
    static let creationWords = [
        "created", "creation", "placed", "order", "ordered", "sale", "sold", "booked", "purchase",
        "purchased",
        "创建", "下单", "下單", "建立", "発注", "注文", "주문",
    ]
    static let timeWords = [
        "date", "time", "timestamp", "datetime", "when", "at", "on", "completed", "posted", "paid",
        "shipped", "updated",
        "时间", "日期", "时刻", "時間", "日時", "日付", "datum", "zeit", "fecha", "hora", "data", "일시", "날짜",
        "시간",
        "buchungstag", "buchungsdatum", "取引日", "利用日", "年月日", "거래일", "이용일",
    ]

    static let endWords = ["end", "ended", "ends", "finish", "finished", "结束", "終了", "종료"]

    /// Whether a header names an end.
    static func namesEnd(_ header: String) -> Bool {
        rank(header) < none && names(endWords, in: header)
    }

    /// Whether `header` holds one of `list`: a Latin one as one of its words, another as
    /// part of its text.
    static func names(_ list: [String], in header: String) -> Bool {
        Reading(header).names(list)
    }

    /// `start`, `creation`, `time` or `none` for a header: its words (split where a letter
    /// or digit is not followed by one, and before a capital after a small letter:
    /// `startDate`) for the Latin ones, its text for the others.
    static func rank(_ header: String) -> Int {
        let reading = Reading(header)
        guard reading.names(timeWords) else { return none }
        return reading.names(startWords)
            ? start : reading.names(creationWords) ? creation : time
    }

    /// A header split into words once, for the several lists it is tested against.
    private struct Reading {
        let words: Set<String>
        /// The lower-cased text of a header with other than ASCII; nil for an ASCII one,
        /// which holds no other word and is not searched for one (Foundation's search per
        /// word and column dominated reading a wide table's header).
        let lowercased: String?

        init(_ header: String) {
            words = HeaderWords.words(header)
            lowercased = header.withByteView { $0.isASCII } ? nil : header.lowercased()
        }

        func names(_ list: [String]) -> Bool {
            guard let lowercased else { return list.contains(where: words.contains) }
            return list.contains {
                $0.unicodeScalars.allSatisfy(\.isASCII)
                    ? words.contains($0) : lowercased.contains($0)
            }
        }
    }

    /// A header's Latin words, lower-cased.
    static func words(_ header: String) -> Set<String> {
        Set(orderedWords(header))
    }

    /// A header's Latin words, lower-cased, in order.
    static func orderedWords(_ header: String) -> [String] {
        header.withByteView { $0.isASCII }
            ? asciiWords(Array(header.utf8)) : wordsByCharacter(header)
    }

    /// `orderedWords` of an ASCII header, by the same rules byte by byte: looking up
    /// Unicode's letter and case properties per character dominated reading a wide header.
    private static func asciiWords(_ bytes: [UInt8]) -> [String] {
        func isUpper(_ b: UInt8) -> Bool { b >= 0x41 && b <= 0x5A }
        func isLower(_ b: UInt8) -> Bool { b >= 0x61 && b <= 0x7A }
        func isLetterOrDigit(_ b: UInt8) -> Bool {
            isUpper(b) || isLower(b) || (b >= 0x30 && b <= 0x39)
        }
        var words: [String] = []
        var word: [UInt8] = []
        for (i, c) in bytes.enumerated() {
            let previous = i > 0 ? bytes[i - 1] : 0
            let next = i + 1 < bytes.count ? bytes[i + 1] : 0
            let camel =
                isUpper(c) && (isLower(previous) || (isUpper(previous) && isLower(next)))
            if !isLetterOrDigit(c) || camel {
                if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
                word.removeAll(keepingCapacity: true)
            }
            if isLetterOrDigit(c) { word.append(isUpper(c) ? c | 0x20 : c) }
        }
        if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
        return words
    }

    /// `orderedWords` of any header, character by character.
    static func wordsByCharacter(_ header: String) -> [String] {
        var words: [String] = []
        var word = ""
        let characters = Array(header)
        for (i, c) in characters.enumerated() {
            let previous = i > 0 ? characters[i - 1] : nil
            let next = i + 1 < characters.count ? characters[i + 1] : nil
            // A word ends at what is not a letter or digit, before a capital after a small
            // letter (`startDate`), and before the last capital of a run followed by a small
            // letter (`GMTTimestamp`).
            let camel =
                c.isUppercase
                && (previous?.isLowercase == true
                    || (previous?.isUppercase == true && next?.isLowercase == true))
            if !(c.isLetter || c.isNumber) || camel {
                if !word.isEmpty { words.append(word) }
                word = ""
            }
            if c.isLetter || c.isNumber { word += c.lowercased() }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }
}
