import Foundation

/// Source words for the canonical statuses (docs/canonical-format.md), case-insensitive, extended or
/// overridden by `--status-map WORD=STATUS`.
public struct StatusVocabulary: Sendable {
    private var words: [String: EventStatus]
    /// The words `add` gave (`--status-map`), which a preset's words do not replace.
    private var added: [String: EventStatus] = [:]

    /// The built-in words in English and Chinese (see docs/mapping.md).
    public init() {
        var w: [String: EventStatus] = [:]
        let table: [(EventStatus, [String])] = [
            (.completed, ["completed", "complete", "done", "delivered", "signed", "signed for", "received", "paid", "success",
                          "succeeded", "successful", "confirmed", "closed", "已签收", "签收", "已完成", "完成", "已送达",
                          "支付成功", "交易成功", "已收钱", "已到账", "已支付", "已付款", "成功"]),
            (.processing, ["processing", "in progress", "in-process", "in process", "shipped", "in transit", "in_transit",
                           "out for delivery", "picked up", "dispatched", "tentative", "派件", "派送中", "在途", "运输中", "揽收",
                           "已揽收", "已发货", "处理中", "配送中"]),
            (.pending, ["pending", "placed", "created", "new", "open", "awaiting payment", "needs-action", "waiting", "queued",
                        "待付款", "待发货", "待处理", "待收货", "未支付", "已下单", "下单"]),
            (.cancelled, ["cancelled", "canceled", "refunded", "void", "voided", "failed", "rejected", "returned", "已取消", "取消",
                          "已退款", "已全额退款", "退款成功", "已关闭", "交易关闭", "失败"]),
        ]
        for (status, list) in table { for word in list { w[word] = status } }
        words = w
    }

    /// Adds or overrides `WORD=STATUS`.
    public mutating func add(_ spec: String) throws(TimelineError) {
        let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let status = EventStatus(rawValue: parts[1].lowercased()) else {
            throw TimelineError(
                .usage, "invalid --status-map '\(spec)'; expected WORD=STATUS with STATUS one of \(EventStatus.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        words[parts[0].lowercased()] = status
        added[parts[0].lowercased()] = status
    }

    /// This vocabulary with a service's own words beneath it: each word of `words` that
    /// is not already one of these (`--status-map` wins over a preset).
    package func under(_ words: [(word: String, status: EventStatus)]) -> StatusVocabulary {
        var result = self
        for (word, status) in words where added[word.lowercased()] == nil { result.words[word.lowercased()] = status }
        return result
    }

    /// The status for a source word, or nil when the word is not known.
    public func status(for word: String) -> EventStatus? {
        words[word.trimmingSpaces.lowercased()]
    }
}
