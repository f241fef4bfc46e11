import Testing

@testable import APNSMockCore

/// The report's parts: identities, token claims, windows, grouping, the numbers and the JSON.
@Suite struct ProviderReportPartsTests {
    static let start = ReportScenario.start

    @Test func identityComesFromAuthenticationThenFromTheToken() {
        let token = ProviderTokenClaims(keyID: "KEY1234567", teamID: "TEAM123456", issuedAt: 1)
        #expect(
            ProviderIdentity(
                authentication: AuthenticationResult(method: .token, teamID: "T", keyID: "K"), token: token)
                == .token(teamID: "T", keyID: "K"))
        #expect(
            ProviderIdentity(authentication: nil, token: token) == .token(teamID: "TEAM123456", keyID: "KEY1234567"))
        #expect(
            ProviderIdentity(
                authentication: AuthenticationResult(method: .certificate, certificateSubject: "UID=com.example.app"),
                token: nil) == .certificate(subject: "UID=com.example.app"))
        #expect(ProviderIdentity(authentication: nil, token: nil) == .unidentified)
        #expect(ProviderIdentity.token(teamID: "T", keyID: "K").name == "team T key K")
    }

    @Test func tokenClaimsAreReadWithoutTheSignature() throws {
        // {"alg":"ES256","kid":"ABC123DEFG"} . {"iss":"DEF123GHIJ","iat":1750000000}
        let header = "eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ"
        let claims = "eyJpc3MiOiJERUYxMjNHSElKIiwiaWF0IjoxNzUwMDAwMDAwfQ"
        let parsed = try #require(ProviderTokenClaims(authorization: "bearer \(header).\(claims)"))
        #expect(parsed == ProviderTokenClaims(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", issuedAt: 1_750_000_000))
        #expect(ProviderTokenClaims(authorization: "bearer not-a-token") == nil)
    }

    @Test func theWindowKeepsPushesReceivedInIt() {
        let scenario = ReportScenario.baseline
        let report = scenario.report(window: ReportWindow(since: Self.start + 1000, until: Self.start + 3000))
        #expect(report.deliveries == 4)
        #expect(report.providers.first?.pushes == 4)
        #expect(scenario.report(window: ReportWindow(since: Self.start + 100_000)).providers.isEmpty)
    }

    @Test func eachIdentityHasItsOwnEntryAndFindings() {
        var scenario = ReportScenario.baseline
        let certificate = ProviderIdentity.certificate(subject: "UID=com.example.other")
        for index in 10..<20 {
            scenario.deliveries[index].identity = certificate
            scenario.deliveries[index].tokenIssuedAt = nil
            scenario.deliveries[index].connectionID = 2
            scenario.deliveries[index].pushTypeHeader = nil
        }
        let report = scenario.report()
        #expect(report.providers.map(\.identity) == [certificate, ReportScenario.identity])
        #expect(report.provider(certificate)?.finding(.pushTypeMissing)?.count == 10)
        #expect(report.provider(ReportScenario.identity)?.findings.isEmpty == true)
    }

    @Test func findingsAreOrderedMostSeriousFirst() {
        var scenario = ReportScenario.baseline
        scenario.deliveries[2].lint = [.apsUnknownKey]
        scenario.deliveries[3].pushTypeHeader = nil
        scenario.deliveries[4].lint = [.payloadNotJSON]
        let severities = scenario.report().findings.map(\.severity)
        #expect(severities == [.error, .warning, .info])
    }

    @Test func examplesAreTheFirstFewDeliveries() throws {
        var scenario = ReportScenario.baseline
        for index in scenario.deliveries.indices { scenario.deliveries[index].pushTypeHeader = nil }
        let finding = try #require(scenario.report().findings.first)
        #expect(finding.count == 20)
        #expect(finding.examples == (1...3).map(ReportScenario.apnsID))
    }

    @Test func densestSpan() {
        #expect(ProviderReportAnalyzer.densest([], span: 60_000).count == 0)
        let result = ProviderReportAnalyzer.densest([0, 70_000, 71_000, 72_000, 200_000], span: 60_000)
        #expect(result.count == 3)
        #expect(result.indices == [1, 2, 3])
    }

    @Test func streamsInFlight() {
        var scenario = ReportScenario.baseline
        // Answered in the millisecond it arrived: it still held a stream.
        scenario.deliveries[0].respondedAt = scenario.deliveries[0].receivedAt
        #expect(ProviderReportAnalyzer.peakInFlight([scenario.deliveries[0]]).count == 1)
        // Three overlapping, then one after the first two were answered.
        var overlapping = Array(scenario.deliveries[0..<4])
        for index in 0..<3 {
            overlapping[index].receivedAt = Self.start + Int64(index)
            overlapping[index].respondedAt = Self.start + 10 + Int64(index)
        }
        overlapping[3].receivedAt = Self.start + 11
        let peak = ProviderReportAnalyzer.peakInFlight(overlapping)
        #expect(peak.count == 3)
        #expect(peak.at?.sequence == 3)
        #expect(ProviderReportAnalyzer.peakInFlight([]).count == 0)
    }

    @Test func theJSONHasTheDocumentedFields() throws {
        var scenario = ReportScenario.baseline
        scenario.deliveries[3].pushTypeHeader = nil
        let json = try #require(JSONValue.parse(scenario.report().json(generatedAt: 42)))
        #expect(json["generatedAt"] == .integer(42))
        #expect(json["deliveries"] == .integer(20))
        #expect(json["findings"]?["warning"] == .integer(1))
        let provider = try #require(json["providers"].flatMap { if case .array(let a) = $0 { a.first } else { nil } })
        #expect(provider["identity"]?["keyId"] == .string("ABC123DEFG"))
        #expect(provider["connections"]?["pushesPerConnection"]?.scalarText == "20")
        #expect(provider["providerTokens"]?["distinct"] == .integer(1))
        #expect(provider["providerTokens"]?["longestUse"] == .string("69s"))
        #expect(provider["answers"]?["200"] == .integer(20))
        let finding = try #require(provider["findings"].flatMap { if case .array(let a) = $0 { a.first } else { nil } })
        #expect(finding["code"] == .string("push-type-missing"))
        #expect(finding["severity"] == .string("warning"))
        #expect(finding["source"]?.scalarText?.contains("Sending notification requests to APNs") == true)
        #expect(finding["examples"] == .array([.string(ReportScenario.apnsID(4))]))
    }

    @Test func decimalsHaveAtMostTwoPlaces() {
        #expect(ProviderBehavior.decimal(20) == "20")
        #expect(ProviderBehavior.decimal(1.5) == "1.5")
        #expect(ProviderBehavior.decimal(1.0 / 3) == "0.33")
        #expect(ProviderBehavior.decimal(2.05) == "2.05")
    }

    @Test func everyCodeIsDistinctAndCitesAnApplePage() {
        #expect(Set(BehaviorCode.all.map(\.rawValue)).count == BehaviorCode.all.count)
        let pages = [
            "Establishing a token-based connection to APNs", "Handling notification responses from APNs",
            "Sending notification requests to APNs", "Troubleshooting push notifications",
            "Generating a remote notification", "Sending web push notifications in web apps and browsers",
        ]
        for code in BehaviorCode.all {
            #expect(pages.contains { code.source.contains($0) }, "\(code) cites no Apple page")
            #expect(!code.threshold.isEmpty)
        }
    }
}
