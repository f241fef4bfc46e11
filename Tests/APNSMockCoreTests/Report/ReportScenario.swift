@testable import APNSMockCore

/// A provider's traffic for the report's table tests: a well-behaved baseline (one connection,
/// one provider token, 20 accepted alert pushes to 20 devices, half a second apart) that each
/// row changes in one way.
struct ReportScenario: Sendable {
    static let start: Int64 = 1_750_000_000_000
    static let identity = ProviderIdentity.token(teamID: "DEF123GHIJ", keyID: "ABC123DEFG")

    var deliveries: [BehaviorDelivery]
    var connections: [BehaviorConnection]

    static func apnsID(_ index: Int) -> String {
        let hex = String(index, radix: 16)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex
    }

    /// 32 bytes of `index`, as hex.
    static func deviceToken(_ index: Int) -> String {
        let hex = String(index % 256, radix: 16)
        return String(repeating: hex.count == 1 ? "0" + hex : hex, count: 32)
    }

    static var baseline: ReportScenario {
        let deliveries = (0..<20).map { index in
            let received = start + Int64(index) * 500
            return BehaviorDelivery(
                sequence: UInt64(index + 1), apnsID: apnsID(index + 1), receivedAt: received, respondedAt: received + 2,
                connectionID: 1, identity: identity, tokenIssuedAt: start / 1000 - 60, deviceToken: deviceToken(index),
                payloadFingerprint: UInt64(index), topic: "com.example.app", pushTypeHeader: "alert",
                priorityHeader: "10", status: 200)
        }
        return ReportScenario(
            deliveries: deliveries,
            connections: [BehaviorConnection(id: 1, openedAt: start - 100, maxConcurrentStreams: 1000)])
    }

    /// A copy of push `index` sent `after` milliseconds after its answer, as the next push.
    mutating func resend(_ index: Int, after: Int64, change: (inout BehaviorDelivery) -> Void = { _ in }) {
        var copy = deliveries[index]
        copy.sequence = UInt64(deliveries.count + 1)
        copy.receivedAt = (copy.respondedAt ?? copy.receivedAt) + after
        copy.respondedAt = copy.receivedAt + 2
        change(&copy)
        deliveries.append(copy)
    }

    func report(window: ReportWindow = ReportWindow()) -> ProviderReport {
        ProviderReportAnalyzer.report(deliveries: deliveries, connections: connections, window: window)
    }
}
