/// One libFuzzer target: a name, the longest input worth trying, and a function that feeds
/// the bytes to the project's real API.
///
/// A target traps (a failed precondition, an out-of-bounds access, an AddressSanitizer report)
/// only on a bug: an input the API rejects, with an error or a verdict, is a normal outcome.
/// Targets are called from one thread at a time (libFuzzer's, or a test's); the fixtures they
/// share are immutable or rebuilt for each input.
public struct FuzzTarget: Sendable {
    /// The name `make fuzz`, `apns-mock-fuzz` and the corpus directory use (`Tests/FuzzCorpus/<name>`).
    public let name: String
    /// What the bytes are, for `apns-mock-fuzz list`.
    public let summary: String
    /// libFuzzer's `-max_len` for this target.
    public let maximumLength: Int
    private let body: @Sendable ([UInt8]) -> Void

    /// A target named `name` that runs `body` on each input.
    public init(name: String, summary: String, maximumLength: Int, body: @escaping @Sendable ([UInt8]) -> Void) {
        self.name = name
        self.summary = summary
        self.maximumLength = maximumLength
        self.body = body
    }

    /// Feeds one input to the target.
    public func run(_ bytes: [UInt8]) { body(bytes) }

    /// Every target, in the order `make fuzz` runs them.
    public static let all: [FuzzTarget] = [
        requestRules, providerToken, json, payload, strings, stringCatalog, configuration, expectations,
        adminQuery, matcher, faultRule, channelBody, serverSession, webPush, http1,
    ]

    /// The target called `name`, if there is one.
    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}
