/// A validation rule, declared once in its own file (`Rules/`) and listed once in
/// `RuleRegistry.all`: the finding code it reports, what to do about the records rejected
/// or the values noticed with that code while reading, and, for rules that look at the
/// events, the check.
protocol RuleDeclaration {
    /// The code and name of its findings.
    static var code: FindingCode { get }
    /// What its findings are about, in a line (`an end before its start`): the help's and
    /// the docs' lists of codes are made from it.
    static var summary: String { get }
    /// The advice in a finding made of what reading reported with this code: records
    /// rejected (errors) or values noticed, such as a DST gap met (warnings). Nil for codes
    /// reading never reports.
    static var readingAdvice: String? { get }
    /// A fresh check over the events of one run; nil for codes only reading reports.
    static func makeCheck(_ context: ValidationContext) -> AnyValidationRule?
    /// A check run partition by partition (`PartitionedRule`); nil for the others.
    static func makePartitionedCheck(_ context: ValidationContext) -> AnyPartitionedRule?
}

extension RuleDeclaration {
    static var readingAdvice: String? { nil }
    static func makeCheck(_ context: ValidationContext) -> AnyValidationRule? { nil }
    static func makePartitionedCheck(_ context: ValidationContext) -> AnyPartitionedRule? { nil }
}

/// A rule that looks at events, declared by its own check type: the check is made per run
/// with the run's zones.
protocol EventRuleDeclaration: RuleDeclaration, ValidationRule {
    init(_ context: ValidationContext)
}

extension EventRuleDeclaration {
    static func makeCheck(_ context: ValidationContext) -> AnyValidationRule? {
        AnyValidationRule(Self(context), context)
    }
}
