/// What one provider identity did over a report's window: its numbers (pushes, answers,
/// connections, provider tokens, lint) and its findings, most serious first.
public struct ProviderBehavior: Sendable, Hashable {
    /// Connection numbers.
    public struct Connections: Sendable, Hashable {
        /// Connections that carried at least one of the identity's pushes.
        public var opened = 0
        /// The most of them opened within any 60 seconds.
        public var peakOpenedPerMinute = 0
        /// Pushes divided by connections.
        public var pushesPerConnection = 0.0
        /// The most of the identity's streams in flight at once on one connection.
        public var peakConcurrentStreams = 0
        /// The largest MAX_CONCURRENT_STREAMS announced on those connections, if known.
        public var maxConcurrentStreams: Int?
        /// RST_STREAM REFUSED_STREAM frames the server sent on them.
        public var refusedStreams = 0

        public init() {}
    }

    /// Provider-token numbers (token authentication only).
    public struct ProviderTokens: Sendable, Hashable {
        /// Distinct tokens (distinct `iat`s per key).
        public var distinct = 0
        /// The shortest time between two consecutive tokens' `iat`s, seconds.
        public var shortestRefreshSeconds: Int64?
        /// The oldest a token was when used (`receivedAt` − `iat`), seconds.
        public var longestUseSeconds: Int64?
        /// 429 TooManyProviderTokenUpdates answers.
        public var tooManyProviderTokenUpdates = 0

        public init() {}
    }

    public var identity: ProviderIdentity
    /// Requests recorded in the window (device pushes and broadcasts).
    public var pushes = 0
    /// Epoch ms of the first and last request.
    public var firstAt: Int64?
    public var lastAt: Int64?
    /// Answers by status (`nil`: none yet, or a GOAWAY), in status order.
    public var answers: [(status: Int?, count: Int)] = []
    public var connections = Connections()
    public var providerTokens = ProviderTokens()
    /// Lint findings by code, most frequent first.
    public var lint: [(code: LintCode, count: Int)] = []
    /// The findings, most serious first (then in `BehaviorCode.all` order).
    public var findings: [BehaviorFinding] = []

    public init(identity: ProviderIdentity) { self.identity = identity }

    /// The finding with `code`, if the report has one.
    public func finding(_ code: BehaviorCode) -> BehaviorFinding? { findings.first { $0.code == code } }

    public static func == (lhs: ProviderBehavior, rhs: ProviderBehavior) -> Bool {
        lhs.identity == rhs.identity && lhs.pushes == rhs.pushes && lhs.findings == rhs.findings
            && lhs.connections == rhs.connections && lhs.providerTokens == rhs.providerTokens
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
        hasher.combine(pushes)
        hasher.combine(findings)
    }

    /// Writes the identity's JSON object.
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("identity")
        identity.write(to: &json)
        json.key("pushes")
        json.number(pushes)
        json.key("firstAt")
        json.number(firstAt)
        json.key("lastAt")
        json.number(lastAt)
        json.key("answers")
        json.beginObject()
        for answer in answers {
            json.key(escaping: answer.status.map(String.init) ?? "none")
            json.number(answer.count)
        }
        json.endObject()
        json.key("connections")
        json.beginObject()
        json.key("opened")
        json.number(connections.opened)
        json.key("peakOpenedPerMinute")
        json.number(connections.peakOpenedPerMinute)
        json.key("pushesPerConnection")
        json.raw(Self.decimal(connections.pushesPerConnection).utf8)
        json.key("peakConcurrentStreams")
        json.number(connections.peakConcurrentStreams)
        json.key("maxConcurrentStreams")
        json.number(connections.maxConcurrentStreams)
        json.key("refusedStreams")
        json.number(connections.refusedStreams)
        json.endObject()
        json.key("providerTokens")
        if case .token = identity {
            json.beginObject()
            json.key("distinct")
            json.number(providerTokens.distinct)
            json.key("shortestRefresh")
            json.string(providerTokens.shortestRefreshSeconds.map(Self.duration))
            json.key("longestUse")
            json.string(providerTokens.longestUseSeconds.map(Self.duration))
            json.key("tooManyProviderTokenUpdates")
            json.number(providerTokens.tooManyProviderTokenUpdates)
            json.endObject()
        } else {
            json.null()
        }
        json.key("lint")
        json.beginObject()
        for entry in lint {
            json.key(escaping: entry.code.rawValue)
            json.number(entry.count)
        }
        json.endObject()
        json.key("findings")
        json.beginArray()
        for finding in findings { finding.write(to: &json) }
        json.endArray()
        json.endObject()
    }

    /// Whole seconds as a duration with a unit (`0s`, `45s`, `25m`).
    static func duration(_ seconds: Int64) -> String {
        seconds <= 0 ? "0s" : DurationText.format(seconds: Double(seconds))
    }

    /// `value` with at most two decimals (`2`, `1.5`, `0.33`).
    static func decimal(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let hundredths = Int64((value * 100).rounded())
        let whole = hundredths / 100
        let fraction = hundredths % 100
        if fraction == 0 { return String(whole) }
        if fraction % 10 == 0 { return "\(whole).\(fraction / 10)" }
        return "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
