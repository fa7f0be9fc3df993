/// Which legacy encoding a file that is not UTF-8 is in, from how plausible its text is in
/// each: every candidate that decodes the bytes without a fault is scored by the share of its
/// non-ASCII characters that are common in the language it is written for — the most frequent
/// characters of Chinese (simplified for GB18030, traditional for Big5), kana and common
/// kanji for Shift_JIS, the most frequent hangul syllables for EUC-KR, and for Windows-1252
/// Latin letters and punctuation standing alone or in pairs among ASCII (a CJK text read as
/// Latin gives runs of accented letters). Text decoded in the wrong encoding is made of rare
/// characters; the right one scores highest.
enum EncodingGuess {
    /// The candidates, in the order that breaks ties (Chinese exports are the most common).
    static let candidates: [TextEncoding] = [.gb18030, .shiftJIS, .eucKR, .big5, .windows1252]

    /// Whether `bytes` are UTF-8 with a few faults: twice as many well-formed multi-byte
    /// characters as bytes that form none (a UTF-8 export with a stray Latin-1 byte beside
    /// its `¥` signs). Text in a legacy encoding forms UTF-8 characters only by accident,
    /// among more faults.
    static func isMostlyUTF8(_ bytes: [UInt8]) -> Bool {
        var valid = 0
        var faults = 0
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            let length =
                b < 0x80
                ? 1
                : (0xC2...0xDF).contains(b)
                    ? 2 : (0xE0...0xEF).contains(b) ? 3 : (0xF0...0xF4).contains(b) ? 4 : 0
            if length == 1 {
                i += 1
                continue
            }
            if length > 0, i + length <= bytes.count,
                bytes[(i + 1)..<(i + length)].allSatisfy({ $0 & 0xC0 == 0x80 })
            {
                valid += 1
                i += length
            } else {
                faults += 1
                i += 1
            }
        }
        return valid > 0 && valid >= 2 * faults
    }

    /// How plausible `text` is as text in `encoding`: 0 to 1 (nil when it holds nothing
    /// but ASCII, which says nothing, or a single-byte text a single other character: a stray
    /// byte of a UTF-8 file as likely as a Latin letter).
    static func plausibility(_ text: String, as encoding: TextEncoding) -> Double? {
        let scalars = Array(text.unicodeScalars)
        var total = 0.0
        var plausible = 0.0
        for (i, s) in scalars.enumerated() where !s.isASCII {
            total += 1
            switch encoding {
            case .windows1252, .latin1, .latin9:
                // A run of three or more non-ASCII letters is a multi-byte text read as Latin.
                let before = i > 0 && !scalars[i - 1].isASCII
                let after = i + 1 < scalars.count && !scalars[i + 1].isASCII
                let run =
                    (i > 1 && before && !scalars[i - 2].isASCII) || (before && after)
                    || (after && i + 2 < scalars.count && !scalars[i + 2].isASCII)
                if !run && isLatin(s) { plausible += 1 }
            case .shiftJIS:
                if (0x3040...0x30FF).contains(s.value) || japanese.contains(s)
                    || isCJKPunctuation(s)
                {
                    plausible += 1
                } else if (0xFF61...0xFF9F).contains(s.value) {
                    plausible += 0.5  // half-width katakana: bank exports use them for names
                }
            case .eucKR:
                if korean.contains(s) || isCJKPunctuation(s) { plausible += 1 }
            case .gb18030:
                if simplified.contains(s) || isCJKPunctuation(s) { plausible += 1 }
            case .big5:
                if traditional.contains(s) || isCJKPunctuation(s) { plausible += 1 }
            case .utf8, .utf16:
                plausible += 1
            }
        }
        let singleByte = encoding == .windows1252 || encoding == .latin1 || encoding == .latin9
        return total == 0 || (singleByte && total < 2) ? nil : plausible / total
    }

    /// Whether single-byte text read as Windows-1252 is rather ISO 8859-15: no byte of
    /// 0x80–0x9F (Windows-1252's punctuation), and a byte that is `€`, `Œ`, `œ`, `Š`, `š`,
    /// `Ž`, `ž` or `Ÿ` in ISO 8859-15 next to a digit or a letter.
    static func isLatin9(_ bytes: [UInt8]) -> Bool {
        guard !bytes.contains(where: { (0x80...0x9F).contains($0) }) else { return false }
        let latin9Only: Set<UInt8> = [0xA4, 0xA6, 0xA8, 0xB4, 0xB8, 0xBC, 0xBD, 0xBE]
        func isWordByte(_ b: UInt8) -> Bool {
            (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b)
                || b >= 0xC0
        }
        for (i, b) in bytes.enumerated() where latin9Only.contains(b) {
            if (i > 0 && isWordByte(bytes[i - 1]))
                || (i + 1 < bytes.count && isWordByte(bytes[i + 1]))
            {
                return true
            }
        }
        return false
    }

    private static func isLatin(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0xC0...0xFF: return s.value != 0xD7 && s.value != 0xF7
        case 0xA0, 0xA3, 0xA7, 0xAB, 0xB0, 0xB2, 0xB3, 0xB5, 0xBB, 0xBF, 0xA1: return true
        case 0x152, 0x153, 0x160, 0x161, 0x178, 0x17D, 0x17E, 0x192: return true  // Œ œ Š š Ÿ Ž ž ƒ
        case 0x2013, 0x2014, 0x2018, 0x2019, 0x201A, 0x201C, 0x201D, 0x201E, 0x2022, 0x2026, 0x20AC,
            0x2122:
            return true
        default: return false
        }
    }

    private static func isCJKPunctuation(_ s: Unicode.Scalar) -> Bool {
        (0x3000...0x303F).contains(s.value) || (0xFF01...0xFF60).contains(s.value)
            || (0xFFE0...0xFFE6).contains(s.value)
    }

    private static func set(_ text: String) -> Set<Unicode.Scalar> {
        Set(text.unicodeScalars.filter { !$0.properties.isWhitespace })
    }

    /// The most frequent characters of simplified Chinese, with the words of bills and orders.
    static let simplified = set(
        """
        的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作\
        当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定\
        女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书\
        比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干\
        接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周\
        保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持音双维罗易银账户款支付余额订单号\
        状态商户退款充值转账消费收入支出备注类型流水交易时间日期摘要对方名称说明金融卡借贷记借方贷方币种人民币成功失败关闭待发货已签收快递物流运费\
        购买卖家买家店铺宝贝数量价格优惠实付应付合计总计网购外卖微信支付宝零钱红包提现理财基金还款信用分期利息手续费工资报销餐饮超市交通话费水电燃气
        """)
    /// The most frequent characters of traditional Chinese, with the words of bills.
    static let traditional = set(
        """
        的一是不了人我在有他這中大來上國個到說們為子和你地出道也時年得就那要下以生會自著去之過家學對可她裡後小麼心多天而能好都然沒日於起還發成事只作\
        當想看文無開手十用主行方又如前所本見經頭面公同三已老從動兩長知民樣現分將外但身些與高意進把法此實回二理美點月明其種聲全工己話兒者向情部正名定\
        女問力機給等幾很業最間新什打便位因重被走電四第門相次東政海口使教西再平真聽世氣信北少關並內加化由卻代軍產入先山五太水萬市眼體別處總才場師書\
        銀帳戶款支付餘額訂單號狀態商退充值轉消費收入支出備註類型交易時間日期摘要對方名稱說明金融卡借貸記幣種臺灣新成功失敗關閉寄送物流運費購買賣家
        """)
    /// Common kanji of Japanese bills and statements (kana count by their ranges).
    static let japanese = set(
        """
        日付金額支払預入出引残高取内容摘要振込手数料利息円年月時分秒口座番号名義普通当座定期残額明細照会入金出金差引区分備考会社株式有限合同電話水道\
        光熱費家賃給与賞与税込税抜合計小計商品注文配送購入発送完了済未確定状態店舗楽天銀行信用券決済利用者様一人大中小上下前後東西南北京都阪神奈川埼\
        玉千葉愛知福岡北海道沖縄市区町村丁目電力瓦斯保険料年金手当返金割引現在期間開始終了予定実績請求書領収証明細書番号登録変更新規解約
        """)
    /// The most frequent hangul syllables, with the words of bank statements.
    static let korean = set(
        """
        이다의는을에하고가지한서기로사리자수어인대정적도일시전상부장제들해보주그게있나아없내만요우거경구국문성신원동계여라생회화과개비공세미마소반실\
        간관발중연학면년월분초금액출입잔체카드결래용통번호명송급식당택료융은행좌현예치메모처리완료취소환불승인거절대기결제이용내역조회기간합계총\
        수수료이자급여월세관리비보험통신전기가스수도마트편의점쇼핑온라인배송주문상품판매구매고객님께서씨님원화외화환율해외국내신용체크계좌번호
        """)
}
