/// Finds the fields no header name gave, from the words of the headers and the values below
/// them: the status (`Order Status`, `订单状态`, FedEx's `derivedStatus`), the order number
/// that is each record's id or, where it repeats, their series (`Order ID`, `Order #`,
/// `订单编号`, `Activity ID`), the title (`Product Name`, `Activity Name`, `宝贝标题`) and the
/// category (`Activity Type`, `workoutActivityType`). Within a kind the leftmost column wins.
struct FieldWordsSniffer {
    let statuses: StatusVocabulary

    static let statusWords = ["status", "state", "状态", "狀態", "ステータス", "상태"]
    /// An identifier: `Order ID`, `Order Number`, `Order No`, `订单编号`, `支付单号` (and `#`).
    static let idWords = [
        "id", "number", "no", "nr", "volgnr", "identificador", "identifiant", "kennung", "编号", "单号",
        "订单号", "編號", "番号", "번호",
    ]
    /// What a record is about when it is an order: its number repeats over the order's rows.
    static let orderWords = ["order", "订单", "訂單", "注文", "주문"]
    /// What a record is when it is one transaction or activity: its number is its own.
    static let recordWords = [
        "transaction", "activity", "transfer", "reference", "referenz", "référence", "交易", "流水",
        "照会", "取引", "거래",
    ]
    static let titleWords = ["title", "subject", "summary", "标题", "標題", "件名", "제목"]
    /// A thing's name (`Product Name`, `商品名称`); a person's (`Full Name`) is no title.
    static let nameWords = ["name", "名称", "名稱", "品名", "이름"]
    static let thingWords = ["product", "item", "activity", "event", "商品", "宝贝", "寶貝", "产品", "商品名"]
    static let typeWords = ["type", "kind", "类型", "類型", "種別", "유형"]

    /// Fills the fields of `sources` that neither a name nor `explicit` gave, from a table's
    /// `header` and sampled `rows`, using no column already used. A column of order numbers a
    /// name gave as the id that repeats in the sample becomes the series instead (JD's
    /// `订单号` over an order's items).
    func fill(
        _ sources: inout [MappedField: FieldSource], header: [String], rows: [[String]],
        explicit: Set<MappedField>
    ) {
        var used = Set(sources.values.flatMap(\.columns))
        func values(_ index: Int) -> [String] { Placeholder.filled(rows, column: index) }
        func repeats(_ index: Int) -> Bool {
            let all = values(index)
            return Set(all).count < all.count
        }
        func isOrderNumber(_ name: String) -> Bool {
            HeaderWords.names(Self.orderWords, in: name)
                && (HeaderWords.names(Self.idWords, in: name) || name.contains("#"))
        }
        func take(_ field: MappedField, _ index: Int) {
            sources[field] = FieldSource(columns: [header[index]])
            used.insert(header[index])
        }
        if !explicit.contains(.id), !explicit.contains(.series), sources[.series] == nil,
            let id = sources[.id], id.columns.count == 1,
            let index = header.firstIndex(of: id.columns[0]), isOrderNumber(header[index]),
            repeats(index)
        {
            sources[.series] = id
            sources[.id] = nil
        }
        // An order's number names an order export's series before a tracking number does.
        if !explicit.contains(.series), let series = sources[.series], series.columns.count == 1,
            !isOrderNumber(series.columns[0]),
            header.contains(where: { !used.contains($0) && isOrderNumber($0) })
        {
            used.remove(series.columns[0])
            sources[.series] = nil
        }
        let open = header.indices.filter { !used.contains(header[$0]) && !values($0).isEmpty }
        if sources[.id] == nil || sources[.series] == nil, !explicit.contains(.id) {
            // An order's number first, then a transaction's or an activity's, then the first
            // column when its name says it is an identifier (`TransferWise ID`).
            let ranked = open.compactMap { index -> (rank: Int, index: Int)? in
                let name = header[index]
                if isOrderNumber(name) { return (0, index) }
                guard HeaderWords.names(Self.idWords, in: name) || name.contains("#") else {
                    return nil
                }
                if HeaderWords.names(Self.recordWords, in: name) { return (1, index) }
                // The first column named as an id (`TransferWise ID`), or one named by an id
                // word alone (Rabobank's `Volgnr`, Nubank's `Identificador`).
                let alone =
                    HeaderWords.words(name).count == 1 && HeaderWords.names(Self.idWords, in: name)
                return index == 0 || alone ? (2, index) : nil
            }
            // An order's number beside an id a name gave (eBay's `Transaction ID` of each
            // item) says which order the record belongs to: the series.
            if let best = ranked.min(by: { ($0.rank, $0.index) < ($1.rank, $1.index) }) {
                if !repeats(best.index), sources[.id] == nil {
                    take(.id, best.index)
                } else if best.rank == 0, sources[.series] == nil, !explicit.contains(.series) {
                    take(.series, best.index)
                }
            }
        }
        if sources[.status] == nil, !explicit.contains(.status) {
            // A column named as a status, else one whose every sampled value is a status
            // word (Sparkasse's `Info`: `Umsatz gebucht`, `Umsatz vorgemerkt`).
            var candidates = open.filter {
                !used.contains(header[$0]) && HeaderWords.names(Self.statusWords, in: header[$0])
            }
            if candidates.isEmpty {
                candidates = open.filter { index in
                    let all = values(index)
                    return !used.contains(header[index]) && all.count >= 2
                        && all.allSatisfy { statuses.status(for: $0) != nil }
                }
            }
            // Some of its values must be status words: `eventState` is a US state.
            let scored = candidates.map { index in
                (
                    known: values(index).filter { statuses.status(for: $0) != nil }.count,
                    index: index
                )
            }
            if let best = scored.max(by: { ($0.known, -$0.index) < ($1.known, -$1.index) }),
                best.known > 0
            {
                take(.status, best.index)
            }
        }
        if sources[.title] == nil, !explicit.contains(.title) {
            let titled = open.first {
                !used.contains(header[$0]) && HeaderWords.names(Self.titleWords, in: header[$0])
            }
            let named = open.first {
                !used.contains(header[$0]) && HeaderWords.names(Self.nameWords, in: header[$0])
                    && HeaderWords.names(Self.thingWords, in: header[$0])
            }
            if let index = titled ?? named { take(.title, index) }
        }
        // No status column, or one of codes none of which is a status word (Correios'
        // `status` `01`): the title's sentences may say it (Correios' `Objeto entregue ao
        // destinatário`, La Poste's `Votre colis est livré.`), when every sampled one does.
        let statusSaysNothing =
            sources[.status].map { source in
                source.columns.count == 1
                    && header.firstIndex(of: source.columns[0]).map {
                        !values($0).contains { statuses.status(for: $0) != nil }
                    } == true
            } ?? true
        if statusSaysNothing, !explicit.contains(.status),
            let text = sources[.title] ?? sources[.detail], text.columns.count == 1,
            let index = header.firstIndex(of: text.columns[0])
        {
            let all = values(index)
            if !all.isEmpty, all.allSatisfy({ statuses.status(for: $0) != nil }) {
                sources[.status] = text
            }
        }
        if sources[.category] == nil, !explicit.contains(.category),
            let index = open.first(where: {
                !used.contains(header[$0]) && HeaderWords.names(Self.typeWords, in: header[$0])
            })
        {
            take(.category, index)
        }
    }
}
