/// One request being answered, as everything that matches on it reads it: the fault rules
/// while it is decided, and the record made of it afterwards (`DeliveryRecord(_:…)` takes its
/// parts from here), so that a live request and its record answer every matcher field alike.
public struct LiveRequestFacts: DeliveryFacts {
    public let request: APNSRequest
    /// What the rules said.
    public let verdict: APNSVerdict
    public let environment: APNSEnvironment
    /// The answer so far (its status, reason and `apns-id`).
    public private(set) var answer: APNSAnswer
    public let connectionID: UInt64
    /// How a `lint` or `preview` condition analyses the payload, with the registry the device's
    /// locale is read from; `nil`: no analysis (`matchAnalysis` is `nil`).
    private let analysisSource: AnalysisSource?

    /// What a payload analysis needs, and the cache that several rules share for one request.
    public struct AnalysisSource {
        public var options: PayloadAnalysisOptions
        public var registry: RegistrySnapshot
        public var cache: AnalysisCache

        public init(options: PayloadAnalysisOptions, registry: RegistrySnapshot, cache: AnalysisCache) {
            self.options = options
            self.registry = registry
            self.cache = cache
        }
    }

    /// One request's analysis, kept across the rules that ask. A connection lends its one cache
    /// (one event loop, one request at a time); making facts for a request empties it.
    public final class AnalysisCache {
        var value: PayloadAnalysis?

        public init() {}
    }

    public init(
        request: APNSRequest, verdict: APNSVerdict, environment: APNSEnvironment, answer: APNSAnswer,
        connectionID: UInt64, analysis: AnalysisSource? = nil
    ) {
        analysis?.cache.value = nil
        self.request = request
        self.verdict = verdict
        self.environment = environment
        self.answer = answer
        self.connectionID = connectionID
        self.analysisSource = analysis
    }

    /// The same request with another answer so far (the analysis cache kept).
    public func answered(_ answer: APNSAnswer) -> LiveRequestFacts {
        var facts = self
        facts.answer = answer
        return facts
    }

    public var matchToken: String? { verdict.namedToken }
    public var matchTopic: String? { verdict.topic }
    public var matchPushType: APNSPushType? { verdict.pushType }
    public var matchStatus: Int? { answer.status }
    public var matchReason: String? { answer.reason?.rawValue }
    /// The answer's id, as the record keeps it: the client's when valid, else the one decided.
    public var matchAPNSID: String? { answer.apnsID.text }
    public var matchEnvironment: APNSEnvironment { environment }
    public var matchAuthMethod: AuthenticationResult.Method? { verdict.authentication?.method }
    public func matchHeader(_ name: String) -> String? { request.headerBlock.firstValue(named: name) }
    /// A web push's body decrypted, as its record keeps it; the body as sent otherwise.
    public var matchPayload: [UInt8] { verdict.webPushPlaintext ?? request.payload }
    public var matchWebPush: JSONValue? { verdict.webPushRecord.flatMap { JSONValue.parse($0) } }
    public var matchConnectionID: UInt64? { connectionID }
    public var matchKind: RecordKind { verdict.kind }
    public var matchChannelID: String? { verdict.channelID }
    /// Computed only for a rule that matches on `lint` or `preview`, once per request.
    public var matchAnalysis: PayloadAnalysis? {
        guard let source = analysisSource else { return nil }
        if let cached = source.cache.value { return cached }
        if let plaintext = verdict.webPushPlaintext {
            let computed = DeclarativeWebPushLinter.analysis(of: plaintext, size: plaintext.count)
            source.cache.value = computed
            return computed
        }
        let token = verdict.deviceToken
        guard
            let context = source.options.context(
                kind: verdict.kind, viaChannel: false, pushType: verdict.pushType,
                pushTypeHeaderPresent: request.headerBlock.firstValue(named: "apns-push-type") != nil,
                priority: request.headerBlock.firstValue(named: "apns-priority"), topic: verdict.topic,
                locale: token.flatMap { source.registry.device($0.lowercased())?.locale })
        else { return nil }
        let computed = PayloadAnalyzer.analyze(
            payload: request.payload, payloadSize: request.payloadSize, context: context)
        source.cache.value = computed
        return computed
    }
}
