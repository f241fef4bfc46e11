import Testing

@testable import APNSMockAdmin

/// `POST /v1/faults` with a `goaway` action's `order` (issue 29): a value it does not take is a
/// 400 naming the field, as every fault-rule field is (`badRequest`: a field of the body); a
/// rule without it lists the default.
@Suite struct FaultRuleRouteTests {
    @Test(arguments: [#""later""#, "1", #""AnswerFirst""#])
    func anUnknownGoAwayOrderIsRefusedNamingTheField(_ value: String) async throws {
        try await ChannelRoutesTests.withRouter { client in
            let answer = try await ChannelRoutesTests.call(
                client, .post, "/v1/faults", #"{"action":{"goaway":{"order":\#(value)}}}"#)
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "badRequest")
            #expect(
                answer.errorMessage.hasPrefix("'action.goaway.order' must be one of answerFirst, goAwayFirst"),
                "\(answer.errorMessage)")
            let list = try await ChannelRoutesTests.call(client, .get, "/v1/faults")
            #expect((list.json?["faults"] as? [Any])?.isEmpty == true)
        }
    }

    @Test(arguments: [(nil, "answerFirst"), ("goAwayFirst", "goAwayFirst"), ("answerFirst", "answerFirst")])
    func aGoAwayRuleListsItsOrder(_ order: String?, _ listed: String) async throws {
        try await ChannelRoutesTests.withRouter { client in
            let field = order.map { #""order":"\#($0)""# } ?? ""
            let answer = try await ChannelRoutesTests.call(
                client, .post, "/v1/faults", #"{"action":{"goaway":{\#(field)}}}"#)
            #expect(answer.status == .created)
            let goaway = (answer.json?["action"] as? [String: Any])?["goaway"] as? [String: Any]
            #expect(goaway?["order"] as? String == listed, "\(answer.json ?? [:])")
        }
    }
}
