/// A web push's `WebPushVerdict`, kept behind one reference in `APNSVerdict` so that a device
/// push's verdict stays as small as before. Immutable.
final class WebPushFacts: Sendable, Equatable {
    let verdict: WebPushVerdict
    /// `verdict.recordJSON`, made once.
    let recordJSON: [UInt8]

    init(_ verdict: WebPushVerdict) {
        self.verdict = verdict
        recordJSON = verdict.recordJSON
    }

    static func == (lhs: WebPushFacts, rhs: WebPushFacts) -> Bool { lhs.verdict == rhs.verdict }
}
