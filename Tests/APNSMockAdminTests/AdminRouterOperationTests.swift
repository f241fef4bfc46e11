import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import APNSMockAdmin

/// The router and the document's operation table (`AdminOperation`, generated from
/// openapi.yaml) are one set: every route is an operation at its method and path, every
/// operation a route; and every query parameter an operation declares is one its route takes.
@Suite struct AdminRouterOperationTests {
    /// A valid value for each parameter whose schema alone does not give one (a pattern, a
    /// duration, a path's name), by name.
    static let examples: [String: String] = [
        "token": String(repeating: "ab", count: 32), "after": String(repeating: "cd", count: 32),
        "tokenPrefix": "ab", "apnsId": "8E1A2B3C-0000-4000-8000-000000000001",
        "uniqueId": "8E1A2B3C-0000-4000-8000-000000000002", "timeout": "0", "window": "10m", "for": "30s",
        "channelId": "dGVzdC1jaGFubmVsLTE=", "keyId": "ABC123DEFG", "id": "f1", "name": "token-update-lockout",
        "bundleId": "com.example.app", "subscriptionId": "X-_XHv8M8y6DGI82F1YZew",
    ]

    /// The free-form matcher conditions, one of each kind.
    static let freeFormExamples = [("headers.apns-priority", "10"), ("payload.aps.badge", "1"), ("preview.body", "x")]

    /// A valid value for `parameter`: from `examples`, else its schema's `enum`, `default`, an
    /// integer's minimum, or any text for a string without a pattern.
    static func example(_ parameter: AdminOperationParameter) throws -> String {
        if let example = examples[parameter.name] { return example }
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(parameter.schema.utf8)) as? [String: Any], "\(parameter.name)")
        if let values = schema["enum"] as? [Any], let first = values.first(where: { !($0 is NSNull) }) {
            return "\(first)"
        }
        if let value = schema["default"] { return "\(value)" }
        if schema["type"] as? String == "integer" { return "\((schema["minimum"] as? Int) ?? 1)" }
        if schema["type"] as? String == "string", schema["pattern"] == nil, schema["anyOf"] == nil { return "x" }
        Issue.record("no example value for parameter '\(parameter.name)' (\(parameter.schema)): add one to `examples`")
        return ""
    }

    /// The operation's path with each `{name}` an example value.
    static func path(of operation: AdminOperation) throws -> String {
        var path = operation.path
        for parameter in operation.parameters where parameter.location == .path {
            path = path.replacingOccurrences(of: "{\(parameter.name)}", with: try example(parameter))
        }
        return path
    }

    @Test func theRoutesAreTheDocumentsOperations() async throws {
        let (router, executor) = AdminAPIDocumentTests.makeRouter()
        defer { Task { await executor.shutdown() } }
        let routed = router.routes.map { "\($0.method.rawValue) \($0.path.description)" }
        let documented = AdminOperation.allCases.map { "\($0.method) \($0.path)" }
        #expect(routed.count == Set(routed).count, "a route registered twice")
        #expect(Set(routed) == Set(documented))
        #expect(routed.count == AdminOperation.allCases.count)
    }

    /// A router without a server's facts or clock has every operation but those.
    @Test func aRouterWithoutAServerLacksOnlyItsFactsAndClock() async throws {
        let executor = AdminExecutor()
        defer { Task { await executor.shutdown() } }
        let router = AdminRouter.build(store: DeliveryStore(), registry: Registry(), executor: executor)
        let routed = Set(router.routes.map { "\($0.method.rawValue) \($0.path.description)" })
        let missing = AdminOperation.allCases.filter { !routed.contains("\($0.method) \($0.path)") }
        // The subscriptions' endpoints need the server's Web Push URL, which `info` carries.
        #expect(
            Set(missing) == [
                .info, .caCertificate, .getClock, .moveClock, .resetClock, .listWebPushSubscriptions,
                .createWebPushSubscription, .getWebPushSubscription, .deleteWebPushSubscription, .putWebPushDevice,
            ])
    }

    /// Each query parameter of each operation, given alone with a valid value (the matcher's
    /// free-form conditions one of each kind), is taken: never a 400 (an unknown parameter, or
    /// a value the document allows and the route refuses).
    @Test func everyDocumentedQueryParameterIsTaken() async throws {
        let (router, executor) = AdminAPIDocumentTests.makeRouter()
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            var tried = 0
            for operation in AdminOperation.allCases {
                var queries: [(String, String)] = []
                for parameter in operation.parameters where parameter.location == .query {
                    if parameter.isFreeForm {
                        queries += Self.freeFormExamples
                    } else {
                        queries.append((parameter.name, try Self.example(parameter)))
                    }
                }
                let path = try Self.path(of: operation)
                for (name, value) in queries {
                    var uri =
                        "\(path)?\(name)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value)"
                    // A wait answers at once (408) rather than after its default 30 s.
                    if operation == .waitForDeliveries && name != "timeout" { uri += "&timeout=0" }
                    tried += 1
                    if operation == .deliveryEvents {
                        // A stream that started is one that took its parameters.
                        let connection = try EventStreamConnection(port: port, path: uri)
                        try await connection.read(until: ": apns-mock delivery events")
                        #expect(connection.received.hasPrefix("HTTP/1.1 200"), "\(uri)")
                        continue
                    }
                    let method = try #require(HTTPRequest.Method(operation.method))
                    let response = try await client.execute(uri: uri, method: method)
                    #expect(
                        response.status != .badRequest, "\(operation.method) \(uri): \(String(buffer: response.body))")
                }
            }
            #expect(tried > 100)
        }
        await executor.shutdown()
    }

    /// The query names a route validates against come from the document: the deliveries
    /// routes' own parameters, the report's, the channel list's filters.
    @Test func theKnownParameterNamesAreTheDocuments() {
        #expect(DeliveryQueryParser.listParameters == ["since", "before", "limit", "order"])
        #expect(DeliveryQueryParser.ownParameters(of: .waitForDeliveries) == ["since", "before", "count", "timeout"])
        #expect(DeliveryQueryParser.ownParameters(of: .deliveryEvents) == ["since", "behind"])
        #expect(DeliveryQueryParser.ownParameters(of: .deleteDeliveries).isEmpty)
        #expect(ReportRoutes.parameterNames == ["since", "until", "window"])
        #expect(ChannelRoutes.listFilters == ["bundleId", "environment", "token"])
    }

    /// The matcher fields each deliveries route declares are the matcher's (Core's field table).
    @Test func theDocumentedMatcherFieldsAreTheMatchers() {
        for operation in [AdminOperation.listDeliveries, .deleteDeliveries, .waitForDeliveries, .deliveryEvents] {
            let documented = operation.parameters.filter {
                $0.location == .query && !$0.isFreeForm && DeliveryMatcher.isQueryField($0.name)
            }.map(\.name)
            // `headers.`, `payload.`, `preview.` and `webPush.` are the free-form parameter's names
            // (`headersAndPayload`).
            let named = Set(DeliveryMatcher.fieldNames).subtracting(DeliveryMatcher.pathFieldNames)
            #expect(Set(documented) == named, "\(operation)")
            #expect(operation.parameters.contains { $0.isFreeForm }, "\(operation)")
        }
    }
}
