import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import APNSMockAdmin

/// The fault-rule routes (issue 29): set-up that a script can run twice (`PUT /v1/faults/{id}`
/// creates or replaces, `POST` refuses an id in use with 409, the status HTTP gives a conflict),
/// errors that say where a body stops being JSON, and a `goaway` action's `order` (a value it
/// does not take is a 400 naming the field, `badRequest` as for every field of the body; a rule
/// without it lists the default).
@Suite struct FaultRuleRoutesTests {
    static let outage =
        #"{"match":{"tokenPrefix":"dead"},"action":{"respond":{"status":503,"reason":"ServiceUnavailable"}}}"#

    @Test func postingAnIdInUseIsAConflict() async throws {
        try await ChannelRoutesTests.withRouter { client in
            let body = #"{"id":"outage","action":{"hang":{}}}"#
            #expect(try await ChannelRoutesTests.call(client, .post, "/v1/faults", body).status == .created)
            let again = try await ChannelRoutesTests.call(client, .post, "/v1/faults", body)
            #expect(again.status == .conflict)
            #expect(again.errorCode == "faultRuleExists")
            #expect(again.errorMessage.contains("PUT /v1/faults/{id} replaces"), "\(again.errorMessage)")
        }
    }

    @Test func putCreatesThenReplacesInPlace() async throws {
        try await ChannelRoutesTests.withRouter { client in
            _ = try await ChannelRoutesTests.call(client, .post, "/v1/faults", #"{"id":"first","action":{"hang":{}}}"#)
            let created = try await ChannelRoutesTests.call(client, .put, "/v1/faults/outage", Self.outage)
            #expect(created.status == .created)
            #expect(created.json?["id"] as? String == "outage")
            _ = try await ChannelRoutesTests.call(client, .post, "/v1/faults", #"{"id":"last","action":{"hang":{}}}"#)
            let replaced = try await ChannelRoutesTests.call(
                client, .put, "/v1/faults/outage", #"{"action":{"respond":{"status":410,"reason":"Unregistered"}}}"#)
            #expect(replaced.status == .ok)
            let list = try await ChannelRoutesTests.call(client, .get, "/v1/faults")
            let rules = list.json?["faults"] as? [[String: Any]] ?? []
            #expect(rules.map { $0["id"] as? String } == ["first", "outage", "last"])
            let respond = (rules[1]["action"] as? [String: Any])?["respond"] as? [String: Any]
            #expect(respond?["status"] as? Int == 410)
        }
    }

    @Test func putTwiceLeavesOneRule() async throws {
        try await ChannelRoutesTests.withRouter { client in
            for _ in 0..<2 {
                let answer = try await ChannelRoutesTests.call(client, .put, "/v1/faults/outage", Self.outage)
                #expect(answer.status == .created || answer.status == .ok)
            }
            let list = try await ChannelRoutesTests.call(client, .get, "/v1/faults")
            #expect((list.json?["faults"] as? [Any])?.count == 1)
        }
    }

    @Test func putWithAnotherIdInTheBodyIsRefused() async throws {
        try await ChannelRoutesTests.withRouter { client in
            let answer = try await ChannelRoutesTests.call(
                client, .put, "/v1/faults/outage", #"{"id":"other","action":{"hang":{}}}"#)
            #expect(answer.status == .badRequest)
            #expect(answer.errorMessage.contains("'other'") && answer.errorMessage.contains("'outage'"))
        }
    }

    /// A trailing comma is the usual slip: the answer says where it is.
    @Test(arguments: ["/v1/faults", "/v1/verify", "/v1/behaviors"])
    func malformedJSONNamesLineAndColumn(_ path: String) async throws {
        try await ChannelRoutesTests.withRouter { client in
            let answer = try await ChannelRoutesTests.call(client, .post, path, "{\n  \"action\": {\"hang\": {}},\n}")
            #expect(answer.status == .badRequest)
            #expect(answer.errorMessage.contains("unexpected '}' at line 3, column 1"), "\(answer.errorMessage)")
        }
    }

    @Test func resetRefusesABody() async throws {
        try await ChannelRoutesTests.withRouter { client in
            let garbage = try await ChannelRoutesTests.call(client, .post, "/v1/reset", "garbage")
            #expect(garbage.status == .badRequest)
            #expect(garbage.errorMessage.contains("takes no body"), "\(garbage.errorMessage)")
            #expect(try await ChannelRoutesTests.call(client, .post, "/v1/reset", "{}").status == .ok)
            #expect(try await ChannelRoutesTests.call(client, .post, "/v1/reset").status == .ok)
        }
    }

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
