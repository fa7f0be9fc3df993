import Testing

@testable import TimelineKit

@Suite("Exact decimal amounts")
struct DecimalNumberTests {
    @Test(
        "parsing and writing keep the scale",
        arguments: [
            ("-12.50", "-12.50"), ("12", "12"), ("+0.5", "0.5"), (".5", "0.5"), ("0.05", "0.05"),
            ("-0.001", "-0.001"),
            ("123456789012345678901234567890.12", "123456789012345678901234567890.12"),
        ])
    func roundTrip(input: String, written: String) {
        #expect(DecimalNumber(input)?.description == written)
    }

    // Expected texts worked by hand (and checked with Python's `decimal.Decimal(c).scaleb(-s)`
    // formatted with 'f'): the 64-bit fast path, the full 128-bit range, zero and scales beyond
    // the digits.
    @Test(
        "written from coefficient and scale",
        arguments: [
            (Int128(0), 2, "0.00"), (Int128(5), 25, "0.0000000000000000000000005"),
            (Int128(-7), 1, "-0.7"),
            (Int128(1_844_674_407_370_955_1615), 2, "184467440737095516.15"),
            (Int128(1_844_674_407_370_955_1616), 0, "18446744073709551616"),
            (Int128.min, 18, "-170141183460469231731.687303715884105728"),
            (Int128.max, 0, "170141183460469231731687303715884105727"),
            (Int128.min, 39, "-0.170141183460469231731687303715884105728"),
        ])
    func written(coefficient: Int128, scale: Int, text: String) {
        let value = DecimalNumber(coefficient: coefficient, scale: scale)
        #expect(value.description == text)
        #expect(value.description.utf8.count <= value.textLengthBound)
    }

    @Test(
        "non-decimal text is refused",
        arguments: [
            "", "-", "1e5", "1,000", "12.5.1", "¥12", " 12", "0x10", "1.0000000000000000001",
        ])
    func refused(input: String) {
        #expect(DecimalNumber(input) == nil)
    }

    @Test("sums are exact where Double is not")
    func exactSums() {
        // 0.1 + 0.2 in binary floating point is 0.30000000000000004.
        let sum = DecimalNumber("0.1")!.adding(DecimalNumber("0.2")!)!
        #expect(sum.description == "0.3")
        var total = DecimalNumber.zero
        for _ in 0..<1000 { total = total.adding(DecimalNumber("0.01")!)! }
        #expect(total.description == "10.00")
        #expect(DecimalNumber("-12.50")!.adding(DecimalNumber("12.5")!)!.description == "0.00")
        #expect(DecimalNumber("199.00")!.adding(DecimalNumber("-1024")!)!.description == "-825.00")
    }

    @Test("overflow is reported, not wrapped")
    func overflow() {
        let big = DecimalNumber("99999999999999999999999999999999999999")!
        #expect(big.adding(big) == nil)
    }
}
