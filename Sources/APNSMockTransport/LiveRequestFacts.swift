import APNSMockCore
import APNSMockRegistry

/// A request being answered, as a fault rule's matcher sees it: the rules' verdict and the
/// answer so far (its status and reason).
struct LiveRequestFacts: DeliveryFacts {
    let verdict: APNSVerdict
    let request: APNSRequest
    let environment: APNSEnvironment
    let answer: APNSAnswer
    let connectionID: UInt64
    let analysisOptions: PayloadAnalysisOptions
    /// For the device's locale, read only when a `lint` or `preview` condition asks.
    let registry: Registry
    /// The analysis, once a condition asked for it: several rules share one. The connection
    /// lends its one cache, emptied here for this request (no allocation per push).
    private let analysis: AnalysisCache

    init(
        verdict: APNSVerdict, request: APNSRequest, environment: APNSEnvironment, answer: APNSAnswer,
        connectionID: UInt64, analysisOptions: PayloadAnalysisOptions, registry: Registry, analysis: AnalysisCache
    ) {
        analysis.value = nil
        self.analysis = analysis
        self.verdict = verdict
        self.request = request
        self.environment = environment
        self.answer = answer
        self.connectionID = connectionID
        self.analysisOptions = analysisOptions
        self.registry = registry
    }

    var matchToken: String? { verdict.namedToken }
    var matchTopic: String? { verdict.topic }
    var matchPushType: APNSPushType? { verdict.pushType }
    var matchStatus: Int? { answer.status }
    var matchReason: String? { answer.reason?.rawValue }
    var matchAPNSID: String? { verdict.kind == .push ? verdict.sentMessageID : verdict.requestID }
    var matchEnvironment: APNSEnvironment { environment }
    var matchAuthMethod: AuthenticationResult.Method? { verdict.authentication?.method }
    func matchHeader(_ name: String) -> String? { request.headerBlock.firstValue(named: name) }
    var matchPayload: [UInt8] { request.payload }
    var matchConnectionID: UInt64? { connectionID }
    var matchKind: RecordKind { verdict.kind }
    var matchChannelID: String? { verdict.channelID }
    /// Computed only for a rule that matches on `lint` or `preview`, once per request, outside
    /// any shared lock (`FaultControl.evaluate` matches before it locks).
    var matchAnalysis: PayloadAnalysis? {
        if let cached = analysis.value { return cached }
        let token = verdict.deviceToken
        guard
            let context = analysisOptions.context(
                kind: verdict.kind, viaChannel: false, pushType: verdict.pushType,
                pushTypeHeaderPresent: request.headerBlock.firstValue(named: "apns-push-type") != nil,
                priority: request.headerBlock.firstValue(named: "apns-priority"), topic: verdict.topic,
                locale: token.flatMap { registry.device($0)?.locale })
        else { return nil }
        let computed = PayloadAnalyzer.analyze(
            payload: request.payload, payloadSize: request.payloadSize, context: context)
        analysis.value = computed
        return computed
    }

    /// One request's analysis, kept across the rules that ask (one event loop, one request at a
    /// time).
    final class AnalysisCache {
        var value: PayloadAnalysis?
    }
}
