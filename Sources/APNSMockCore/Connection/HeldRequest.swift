/// A request the machine keeps while its success's effect is pending (a delayed channel
/// request, broadcast or push-to-start): what the transport needs to carry the effect out, and
/// what its record and follow-ups are made of.
public struct HeldRequest: Sendable, Equatable {
    public var request: APNSRequest
    public var verdict: APNSVerdict
    public var environment: APNSEnvironment
    /// When the request arrived (epoch ms).
    public var receivedAt: Int64

    public init(request: APNSRequest, verdict: APNSVerdict, environment: APNSEnvironment, receivedAt: Int64) {
        self.request = request
        self.verdict = verdict
        self.environment = environment
        self.receivedAt = receivedAt
    }
}
