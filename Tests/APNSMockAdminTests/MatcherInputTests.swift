import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import APNSMockAdmin

/// A matcher value that can never match is a 400 naming the field and its allowed form, on
/// every route that reads a matcher: query filters, fault rules' `match`, and verify bodies.
@Suite struct MatcherInputTests {
    static let token = "740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad"

    @Test(arguments: [
        ("/v1/deliveries?token=zz", "query parameter 'token' must be an even number of hex digits"),
        ("/v1/deliveries?tokenPrefix=xyz", "query parameter 'tokenPrefix' must be the start of a device token"),
        ("/v1/deliveries?token=abcd", "query parameter 'token' must be an even number of hex digits, 8–256 bytes"),
        ("/v1/deliveries?status=150", "query parameter 'status' must be an HTTP status code from 200 to 599"),
        ("/v1/deliveries?priority=7", "query parameter 'priority' must be an apns-priority: 10, 5 or 1"),
        ("/v1/deliveries?pushType=banner", "query parameter 'pushType' must be one of alert"),
        ("/v1/deliveries?kind=pushes", "query parameter 'kind' must be one of push, broadcast, channel"),
        ("/v1/deliveries/wait?count=1&timeout=0&token=zz", "query parameter 'token' must be an even number"),
        ("/v1/events?tokenPrefix=xyz", "query parameter 'tokenPrefix' must be the start of a device token"),
    ])
    func badQueryFilterIsRefused(_ uri: String, _ message: String) async throws {
        try await ChannelRoutesTests.withRouter { client in
            let answer = try await ChannelRoutesTests.call(client, .get, uri)
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "badParameter")
            #expect(answer.errorMessage.hasPrefix(message), "\(answer.errorMessage)")
        }
    }

    @Test func badDeleteScopeIsRefused() async throws {
        try await ChannelRoutesTests.withRouter { client in
            let answer = try await ChannelRoutesTests.call(client, .delete, "/v1/deliveries?token=zz")
            #expect(answer.status == .badRequest && answer.errorCode == "badParameter")
            #expect(answer.errorMessage.contains("'token'"), "\(answer.errorMessage)")
        }
    }

    @Test(arguments: [
        (#"{"token":"abcd…"}"#, "'match.token' must be an even number of hex digits, 8–256 bytes; got 'abcd…'"),
        (#"{"token":"zz"}"#, "'match.token' must be an even number of hex digits"),
        (#"{"tokenPrefix":"xyz"}"#, "'match.tokenPrefix' must be the start of a device token"),
        (#"{"status":100}"#, "'match.status' must be an HTTP status code from 200 to 599"),
        (#"{"priority":7}"#, "'match.priority' must be an apns-priority: 10, 5 or 1"),
        (#"{"environment":"both"}"#, "'match.environment' must be 'sandbox' or 'production'"),
        (#"{"outcome":"delivered"}"#, "'match.outcome' must be one of pending"),
    ])
    func badFaultMatchIsRefused(_ match: String, _ message: String) async throws {
        try await ChannelRoutesTests.withRouter { client in
            let answer = try await ChannelRoutesTests.call(
                client, .post, "/v1/faults", #"{"match":\#(match),"action":{"hang":{}}}"#)
            #expect(answer.status == .badRequest)
            #expect(answer.errorMessage.contains(message), "\(answer.errorMessage)")
            let list = try await ChannelRoutesTests.call(client, .get, "/v1/faults")
            #expect((list.json?["faults"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func goodFaultMatchIsTaken() async throws {
        try await ChannelRoutesTests.withRouter { client in
            let answer = try await ChannelRoutesTests.call(
                client, .post, "/v1/faults",
                #"{"match":{"token":"\#(Self.token.uppercased())","priority":5,"status":"410"},"action":{"hang":{}}}"#)
            #expect(answer.status == .created)
            let match = answer.json?["match"] as? [String: Any]
            #expect(match?["token"] as? String == Self.token)
        }
    }

    @Test func badVerifyMatchIsRefused() async throws {
        try await ChannelRoutesTests.withRouter { client in
            let answer = try await ChannelRoutesTests.call(
                client, .post, "/v1/verify", #"{"expect":[{"name":"w","match":{"token":"xyz"}}]}"#)
            #expect(answer.status == .badRequest)
            #expect(
                answer.errorMessage.contains("'expect[0].match.token' must be an even number"), "\(answer.errorMessage)"
            )
        }
    }
}
