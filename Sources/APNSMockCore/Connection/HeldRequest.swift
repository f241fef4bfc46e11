/// A request the machine keeps while its success's effect is pending (a delayed channel
/// request, broadcast or push-to-start): what the transport needs to carry the effect out, and
/// what its record and follow-ups are made of.
///
/// A class: `RequestDecision` and `ConnectionStateMachine.Action` carry it as one reference,
/// so the requests that hold nothing (nearly all) do not copy a whole request with each
/// decision (issue 31: a struct here cost about 900 instructions per push in `memcpy`).
public final class HeldRequest: Sendable, Equatable {
    public let request: APNSRequest
    public let verdict: APNSVerdict
    public let environment: APNSEnvironment
    /// When the request arrived (epoch ms).
    public let receivedAt: Int64

    public init(request: APNSRequest, verdict: APNSVerdict, environment: APNSEnvironment, receivedAt: Int64) {
        self.request = request
        self.verdict = verdict
        self.environment = environment
        self.receivedAt = receivedAt
    }

    public static func == (lhs: HeldRequest, rhs: HeldRequest) -> Bool {
        lhs === rhs
            || (lhs.request == rhs.request && lhs.verdict == rhs.verdict && lhs.environment == rhs.environment
                && lhs.receivedAt == rhs.receivedAt)
    }
}
