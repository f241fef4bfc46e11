import Testing

@testable import APNSMockCore

/// The provider-behaviour report as tables: a well-behaved baseline yields no finding, and each
/// row changes it in one way and yields exactly the findings named (an empty list: a change
/// Apple's guidance allows).
@Suite struct ProviderReportTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var expected: [BehaviorCode]
        var change: @Sendable (inout ReportScenario) -> Void
        var testDescription: String { name }

        init(_ name: String, _ expected: [BehaviorCode], _ change: @escaping @Sendable (inout ReportScenario) -> Void) {
            self.name = name
            self.expected = expected
            self.change = change
        }
    }

    static let start = ReportScenario.start

    static let rows: [Row] = [
        // Connections (Troubleshooting push notifications; Sending notification requests to APNs).
        Row("a connection per push (curl)", [.connectionChurn]) { scenario in
            scenario.connections = []
            for index in scenario.deliveries.indices {
                let id = UInt64(index + 10)
                scenario.deliveries[index].connectionID = id
                let at = scenario.deliveries[index].receivedAt
                scenario.connections.append(
                    BehaviorConnection(id: id, openedAt: at - 5, closedAt: at + 5, maxConcurrentStreams: 1000))
            }
        },
        Row("four connections of one push each is not churn yet", []) { scenario in
            for index in 0..<4 { scenario.deliveries[index].connectionID = UInt64(index + 10) }
        },
        Row("connections of one push each, minutes apart, are not churn", []) { scenario in
            for index in scenario.deliveries.indices {
                scenario.deliveries[index].connectionID = UInt64(index + 10)
                scenario.deliveries[index].receivedAt += Int64(index) * 61_000
                scenario.deliveries[index].respondedAt = scenario.deliveries[index].receivedAt + 2
            }
        },
        Row("a pool of five connections reused", []) { scenario in
            for index in scenario.deliveries.indices {
                scenario.deliveries[index].connectionID = UInt64(index % 5 + 10)
            }
        },
        Row("streams refused by the server", [.streamsRefused]) { scenario in
            scenario.connections[0].refusedStreams = 3
        },
        Row("four streams in flight at a limit of four", [.concurrencyAtLimit]) { scenario in
            scenario.connections[0].maxConcurrentStreams = 4
            for index in 0..<4 {
                scenario.deliveries[index].receivedAt = start + Int64(index)
                scenario.deliveries[index].respondedAt = start + 100
            }
        },
        Row("three streams in flight at a limit of four", []) { scenario in
            scenario.connections[0].maxConcurrentStreams = 4
            for index in 0..<3 {
                scenario.deliveries[index].receivedAt = start + Int64(index)
                scenario.deliveries[index].respondedAt = start + 100
            }
        },
        // Provider tokens (Establishing a token-based connection to APNs).
        Row("a provider token minted per push", [.providerTokenRefreshedTooOften]) { scenario in
            for index in scenario.deliveries.indices {
                scenario.deliveries[index].tokenIssuedAt =
                    scenario.deliveries[index].receivedAt / 1000 - Int64(40 - index)
            }
        },
        Row("a new provider token after 25 minutes", []) { scenario in
            for index in 10..<20 { scenario.deliveries[index].tokenIssuedAt! += 25 * 60 }
        },
        Row("a new provider token after 19 minutes", [.providerTokenRefreshedTooOften]) { scenario in
            for index in 10..<20 { scenario.deliveries[index].tokenIssuedAt! += 19 * 60 }
        },
        Row("a provider token used 61 minutes after its iat", [.providerTokenTooOld]) { scenario in
            // The baseline's token was minted a minute before the first push.
            scenario.deliveries[19].receivedAt = start + 60 * 60 * 1000
            scenario.deliveries[19].respondedAt = scenario.deliveries[19].receivedAt + 2
        },
        Row("429 TooManyProviderTokenUpdates", [.tooManyProviderTokenUpdates]) { scenario in
            scenario.deliveries[5].status = 429
            scenario.deliveries[5].reason = "TooManyProviderTokenUpdates"
        },
        // Answers (Handling notification responses from APNs).
        Row("a push to a token after its 410", [.pushAfterUnregistered]) { scenario in
            scenario.deliveries[3].status = 410
            scenario.deliveries[3].reason = "Unregistered"
            scenario.deliveries[12].deviceToken = scenario.deliveries[3].deviceToken
            scenario.deliveries[12].status = 410
            scenario.deliveries[12].reason = "Unregistered"
        },
        Row("a push to a token sent before its 410 arrived", []) { scenario in
            scenario.deliveries[3].status = 410
            scenario.deliveries[3].respondedAt = scenario.deliveries[4].receivedAt + 1
            scenario.deliveries[4].deviceToken = scenario.deliveries[3].deviceToken
        },
        Row("a push to a token after its 410 and a later success", []) { scenario in
            scenario.deliveries[3].status = 410
            scenario.deliveries[3].reason = "ExpiredToken"
            // Registered again: a push to it succeeds, and pushes after that are fine.
            scenario.deliveries[8].deviceToken = scenario.deliveries[3].deviceToken
            scenario.deliveries[9].deviceToken = scenario.deliveries[3].deviceToken
        },
        Row("a 400 re-sent with the same apns-id", [.nonRetryableRetried]) { scenario in
            scenario.deliveries[19].status = 400
            scenario.deliveries[19].reason = "BadDeviceToken"
            scenario.resend(19, after: 50) { $0.status = 400 }
        },
        Row("a 413 re-sent with a new apns-id, same token and payload", [.nonRetryableRetried]) { scenario in
            scenario.deliveries[19].status = 413
            scenario.deliveries[19].reason = "PayloadTooLarge"
            scenario.resend(19, after: 5000) {
                $0.apnsID = ReportScenario.apnsID(99)
                $0.status = 413
            }
        },
        Row("a 400 re-sent with a generated apns-id and another payload", []) { scenario in
            scenario.deliveries[19].status = 400
            scenario.deliveries[19].apnsIDGenerated = true
            scenario.resend(19, after: 50) {
                $0.apnsID = ReportScenario.apnsID(99)
                $0.payloadFingerprint = 999
            }
        },
        Row("a 400 BadPriority re-sent with the priority fixed", []) { scenario in
            scenario.deliveries[19].status = 400
            scenario.deliveries[19].reason = "BadPriority"
            scenario.resend(19, after: 50) { $0.priorityHeader = "5" }
        },
        Row("a 403 re-sent with the same provider token", [.nonRetryableRetried]) { scenario in
            scenario.deliveries[19].status = 403
            scenario.deliveries[19].reason = "InvalidProviderToken"
            scenario.resend(19, after: 50) { $0.status = 403 }
        },
        Row("a 403 ExpiredProviderToken re-sent with a fresh token", []) { scenario in
            scenario.deliveries[19].status = 403
            scenario.deliveries[19].reason = "ExpiredProviderToken"
            scenario.resend(19, after: 50) { $0.tokenIssuedAt! += 30 * 60 }
        },
        Row("a 429 TooManyRequests retried after 200 ms", [.retryWithoutBackoff]) { scenario in
            scenario.deliveries[19].status = 429
            scenario.deliveries[19].reason = "TooManyRequests"
            scenario.resend(19, after: 200) { $0.apnsID = ReportScenario.apnsID(99) }
        },
        Row("a 429 TooManyRequests retried after 1.5 s", []) { scenario in
            scenario.deliveries[19].status = 429
            scenario.deliveries[19].reason = "TooManyRequests"
            scenario.resend(19, after: 1500)
        },
        Row("a 503 ServiceUnavailable retried at once", [.retryWithoutBackoff]) { scenario in
            scenario.deliveries[19].status = 503
            scenario.deliveries[19].reason = "ServiceUnavailable"
            scenario.resend(19, after: 10)
        },
        Row("a 503 Shutdown retried at once on a new connection", []) { scenario in
            scenario.deliveries[19].status = 503
            scenario.deliveries[19].reason = "Shutdown"
            scenario.resend(19, after: 10) { $0.connectionID = 2 }
        },
        // Issue 29: aioapns re-sends a push after h2 failed on the frame after its 200 (GOAWAY first).
        Row("a push answered 200 re-sent with the same apns-id", [.answeredPushResent]) { scenario in
            scenario.resend(19, after: 5) { $0.connectionID = 2 }
        },
        Row("a push answered 200 re-sent with the apns-id in upper case", [.answeredPushResent]) { scenario in
            scenario.resend(4, after: 5) { $0.apnsID = $0.apnsID.uppercased() }
        },
        Row("a push refused by GOAWAY (no status) re-sent on a new connection", []) { scenario in
            scenario.deliveries[19].status = nil
            scenario.deliveries[19].respondedAt = nil
            scenario.resend(19, after: 5) {
                $0.connectionID = 2
                $0.status = 200
            }
        },
        Row("the same payload to the same token again under a new apns-id", []) { scenario in
            scenario.resend(19, after: 60_000) { $0.apnsID = ReportScenario.apnsID(99) }
        },
        Row("a push answered 200 sent again with a generated apns-id", []) { scenario in
            scenario.deliveries[19].apnsIDGenerated = true
            scenario.resend(19, after: 60_000)
        },
        // After the 200 (Sending notification requests to APNs: apns-expiration, apns-collapse-id;
        // Viewing the status of push notifications using Metrics and APNs).
        Row("a push with apns-expiration 0 discarded because the device was offline", [.expirationZeroDiscarded]) {
            scenario in
            scenario.deliveries[3].expirationHeader = "0"
            scenario.deliveries[3].delivery = .discarded(.expired, at: scenario.deliveries[3].respondedAt!)
        },
        Row("a push with apns-expiration 0 delivered", []) { scenario in
            scenario.deliveries[3].expirationHeader = "0"
            scenario.deliveries[3].delivery = .delivered(at: scenario.deliveries[3].respondedAt!)
        },
        Row("a stored push whose later expiration passed", []) { scenario in
            scenario.deliveries[3].expirationHeader = String(start / 1000 + 60)
            scenario.deliveries[3].delivery = .discarded(.expired, at: start + 60_000)
        },
        Row("a unique collapse id per push", [.collapseIDNeverCollapses]) { scenario in
            for index in 0..<5 { scenario.deliveries[index].collapseIDHeader = "id-\(index)" }
        },
        Row("a collapse id reused on each device it goes to", []) { scenario in
            for index in 0..<4 {
                scenario.deliveries[index].collapseIDHeader = "score"
                scenario.deliveries[index].deviceToken = ReportScenario.deviceToken(index / 2)
            }
        },
        Row("one push with a collapse id is too few to judge", []) { scenario in
            scenario.deliveries[4].collapseIDHeader = "score"
        },
        Row("collapse ids of rejected pushes are not judged", []) { scenario in
            for index in 0..<5 {
                scenario.deliveries[index].collapseIDHeader = "id-\(index)"
                scenario.deliveries[index].status = 400
                scenario.deliveries[index].reason = "BadCollapseId"
            }
        },
        Row("a push to a token after one was discarded tokenInactive", [.pushAfterTokenInactive]) { scenario in
            scenario.deliveries[2].delivery = .discarded(.tokenInactive, at: start)
            scenario.deliveries[5].deviceToken = scenario.deliveries[2].deviceToken
            scenario.deliveries[5].delivery = .discarded(.tokenInactive, at: start + 1)
        },
        Row("a token whose push was delivered again after tokenInactive", []) { scenario in
            scenario.deliveries[2].delivery = .discarded(.tokenInactive, at: start)
            for index in [5, 8] {
                scenario.deliveries[index].deviceToken = scenario.deliveries[2].deviceToken
                scenario.deliveries[index].delivery = .delivered(at: start + 1)
            }
        },
        // Push type, priority, payload (Sending notification requests to APNs).
        Row("a background push at priority 10", [.backgroundPriority10]) { scenario in
            scenario.deliveries[2].pushTypeHeader = "background"
            scenario.deliveries[2].status = 400
            scenario.deliveries[2].reason = "BadPriority"
        },
        Row("a background push at priority 5", []) { scenario in
            scenario.deliveries[2].pushTypeHeader = "background"
            scenario.deliveries[2].priorityHeader = "5"
        },
        Row("pushes without apns-push-type", [.pushTypeMissing]) { scenario in
            scenario.deliveries[2].pushTypeHeader = nil
            scenario.deliveries[7].pushTypeHeader = nil
        },
        Row("a broadcast has no device and needs no check of its own", []) { scenario in
            scenario.deliveries[2].isBroadcast = true
            scenario.deliveries[2].deviceToken = nil
            scenario.deliveries[2].pushTypeHeader = nil
        },
        Row("payloads with lint errors", [.payloadLintErrors]) { scenario in
            scenario.deliveries[2].lint = [.payloadNotJSON]
            scenario.deliveries[3].lint = [.badgeNotInteger, .apsKeyWrongType]
        },
        Row("payloads with lint warnings", [.payloadLintWarnings]) { scenario in
            scenario.deliveries[2].lint = [.apsUnknownKey]
        },
        // Web Push (Sending web push notifications in web apps and browsers; RFC 8030, 8291, 8292).
        Row("a web push encrypted for other keys", [.webPushUndecryptable]) { scenario in
            webPush(
                &scenario.deliveries[2], BehaviorDelivery.WebPush(ttl: 60, decryptionProblem: "authenticationFailed"))
        },
        Row("a web push that decrypted has no push type and needs none", []) { scenario in
            webPush(&scenario.deliveries[2], BehaviorDelivery.WebPush(ttl: 60))
        },
        Row("a web push with TTL 0 to a browser that was offline", [.webPushTTLZeroDiscarded]) { scenario in
            webPush(&scenario.deliveries[2], BehaviorDelivery.WebPush(ttl: 0))
            scenario.deliveries[2].delivery = .discarded(.expired, at: start + 1)
        },
        Row("a web push with TTL 0 delivered at once", []) { scenario in
            webPush(&scenario.deliveries[2], BehaviorDelivery.WebPush(ttl: 0))
            scenario.deliveries[2].delivery = .delivered(at: start + 1)
        },
        Row("a VAPID token used past its exp", [.vapidTokenExpired]) { scenario in
            let received = scenario.deliveries[2].receivedAt
            webPush(&scenario.deliveries[2], BehaviorDelivery.WebPush(ttl: 60, vapidExpiresAt: received / 1000 - 30))
            scenario.deliveries[2].status = 403
            scenario.deliveries[2].reason = "BadJwtToken"
        },
        Row("a VAPID token used before its exp", []) { scenario in
            let received = scenario.deliveries[2].receivedAt
            webPush(&scenario.deliveries[2], BehaviorDelivery.WebPush(ttl: 60, vapidExpiresAt: received / 1000 + 30))
        },
    ]

    /// Makes `delivery` a web push with `facts`, accepted (201) with no APNs headers.
    static func webPush(_ delivery: inout BehaviorDelivery, _ facts: BehaviorDelivery.WebPush) {
        delivery.webPush = facts
        delivery.pushTypeHeader = nil
        delivery.priorityHeader = nil
        delivery.status = 201
    }

    @Test func theBaselineHasNoFinding() {
        let report = ReportScenario.baseline.report()
        #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        let provider = try! #require(report.provider(ReportScenario.identity))
        #expect(provider.pushes == 20)
        #expect(provider.connections.opened == 1)
        #expect(provider.connections.pushesPerConnection == 20)
        #expect(provider.connections.maxConcurrentStreams == 1000)
        #expect(provider.providerTokens.distinct == 1)
        #expect(provider.answers.map(\.status) == [200])
    }

    /// One finding for every 200 after the first under an apns-id; its examples name each
    /// apns-id once.
    @Test func answeredPushResentCountsEveryExtra200AndNamesEachIDOnce() throws {
        var scenario = ReportScenario.baseline
        scenario.resend(19, after: 5)
        scenario.resend(19, after: 10)
        scenario.resend(3, after: 5) { $0.status = 503 }
        scenario.resend(7, after: 5)
        let finding = try #require(scenario.report().findings.first { $0.code == .answeredPushResent })
        #expect(finding.count == 3)
        #expect(finding.severity == .error)
        #expect(finding.examples == [ReportScenario.apnsID(20), ReportScenario.apnsID(8)])
        #expect(
            finding.message
                == "3 pushes were answered 200 under an apns-id already answered 200 (2 apns-ids): the provider "
                + "re-sent pushes it was answered for, and each reached its device again")
    }

    /// The `apns-expiration: 0` finding says how many, for which tokens and topics.
    @Test func expirationZeroDiscardedNamesTokensAndTopics() throws {
        var scenario = ReportScenario.baseline
        for index in [3, 4, 9] {
            scenario.deliveries[index].expirationHeader = "0"
            scenario.deliveries[index].delivery = .discarded(.expired, at: scenario.deliveries[index].respondedAt!)
        }
        scenario.deliveries[4].deviceToken = scenario.deliveries[3].deviceToken
        scenario.deliveries[9].topic = "com.example.app.voip"
        let finding = try #require(scenario.report().findings.first { $0.code == .expirationZeroDiscarded })
        #expect(finding.count == 3 && finding.severity == .warning)
        #expect(
            finding.message
                == "3 pushes with apns-expiration 0 were discarded (expired) because the device could not take them at "
                + "once: 2 device tokens (03030303…, 09090909…), 2 topics (com.example.app, com.example.app.voip)")
        #expect(finding.examples == [ReportScenario.apnsID(4), ReportScenario.apnsID(5), ReportScenario.apnsID(10)])
    }

    /// Pushes after the first tokenInactive are counted, a 410 answered later among them.
    @Test func pushAfterTokenInactiveCountsThePushesAfterTheFirst() throws {
        var scenario = ReportScenario.baseline
        let token = scenario.deliveries[2].deviceToken
        scenario.deliveries[2].delivery = .discarded(.tokenInactive, at: Self.start)
        for index in [6, 7] {
            scenario.deliveries[index].deviceToken = token
            scenario.deliveries[index].delivery = .discarded(.tokenInactive, at: Self.start)
        }
        scenario.deliveries[11].deviceToken = token
        scenario.deliveries[11].status = 410
        scenario.deliveries[11].reason = "Unregistered"
        let finding = try #require(scenario.report().findings.first { $0.code == .pushAfterTokenInactive })
        #expect(finding.count == 3)
        #expect(finding.message.hasPrefix("3 pushes were sent to 1 device token after APNs discarded a push"))
        #expect(finding.examples == [ReportScenario.apnsID(7), ReportScenario.apnsID(8), ReportScenario.apnsID(12)])
    }

    /// Each collapse id that never repeats on a device is counted once.
    @Test func collapseIDNeverCollapsesCountsIDs() throws {
        var scenario = ReportScenario.baseline
        for index in 0..<6 { scenario.deliveries[index].collapseIDHeader = index < 2 ? "score" : "id-\(index)" }
        scenario.deliveries[1].deviceToken = scenario.deliveries[0].deviceToken
        let finding = try #require(scenario.report().findings.first { $0.code == .collapseIDNeverCollapses })
        #expect(finding.count == 4 && finding.severity == .info)
        #expect(
            finding.message
                == "4 collapse ids of 5 never collapsed: each went to a device in one push only (6 accepted pushes carried a collapse id)"
        )
    }

    @Test(arguments: rows) func oneChange(_ row: Row) {
        var scenario = ReportScenario.baseline
        row.change(&scenario)
        let report = scenario.report()
        #expect(
            report.findings.map(\.code.rawValue).sorted() == row.expected.map(\.rawValue).sorted(),
            "\(report.findings.map(\.message))")
        for finding in report.findings {
            #expect(finding.count > 0)
            #expect(!finding.message.isEmpty)
            if finding.code != .streamsRefused {
                #expect(!finding.examples.isEmpty, "\(finding.code) names no example")
            }
        }
    }
}
