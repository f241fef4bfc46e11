import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import Yams

@testable import APNSMockAdmin

/// The OpenAPI document against the router: the same paths and methods, served as YAML, and
/// what the router answers for paths and methods it does not have.
@Suite struct AdminAPIDocumentTests {
    struct Operation: Hashable, CustomStringConvertible {
        var method: String
        var path: String
        var description: String { "\(method) \(path)" }
    }

    static let methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

    /// The document's operations.
    static func documented() throws -> Set<Operation> {
        let document = try #require(try Yams.load(yaml: AdminAPIDocument.yaml) as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: Any])
        var operations: Set<Operation> = []
        for (path, item) in paths {
            let item = try #require(item as? [String: Any], "\(path)")
            for method in methods where item[method] != nil {
                operations.insert(Operation(method: method.uppercased(), path: path))
            }
        }
        return operations
    }

    /// The router's routes.
    static func routed(_ router: Router<BasicRequestContext>) -> Set<Operation> {
        Set(router.routes.map { Operation(method: $0.method.rawValue, path: $0.path.description) })
    }

    static func makeRouter() -> (Router<BasicRequestContext>, AdminExecutor) {
        let executor = AdminExecutor()
        let info = ServerInfo(
            version: "test", environment: "sandbox", caCertificate: Array("-----BEGIN CERTIFICATE-----\n".utf8),
            noCAReason: "none",
            addresses: ServerInfo.Addresses(
                apnsURL: "https://127.0.0.1:2197", apnsPorts: [2197], channelsURL: "https://127.0.0.1:2195",
                channelsPort: 2195, webPushURL: "https://127.0.0.1:2199", webPushPort: 2199,
                adminURL: "http://127.0.0.1:2198", adminPort: 2198))
        return (
            AdminRouter.build(
                store: DeliveryStore(), registry: Registry(), executor: executor, info: info, clock: MockClock()),
            executor
        )
    }

    @Test func everyRouteIsDocumentedAndEveryDocumentedPathIsRouted() async throws {
        let (router, executor) = Self.makeRouter()
        defer { Task { await executor.shutdown() } }
        let documented = try Self.documented()
        let routed = Self.routed(router)
        #expect(!routed.isEmpty)
        #expect(routed.subtracting(documented).isEmpty, "routes missing from the document")
        #expect(documented.subtracting(routed).isEmpty, "documented operations the router does not have")
    }

    /// `AdminAccess.openPaths` need no token; every other operation documents the 401 of a
    /// server started with `--admin-token`.
    @Test func securityMatchesTheAdminToken() throws {
        let document = try #require(try Yams.load(yaml: AdminAPIDocument.yaml) as? [String: Any])
        let schemes = (document["components"] as? [String: Any])?["securitySchemes"] as? [String: Any]
        let bearer = try #require(schemes?["bearerAuth"] as? [String: Any])
        #expect(bearer["type"] as? String == "http" && bearer["scheme"] as? String == "bearer")
        #expect((document["security"] as? [[String: Any]])?.count == 2)
        let paths = try #require(document["paths"] as? [String: Any])
        for (path, item) in paths {
            for (method, operation) in try #require(item as? [String: Any]) where Self.methods.contains(method) {
                let operation = try #require(operation as? [String: Any])
                let responses = try #require(operation["responses"] as? [String: Any])
                if AdminAccess.openPaths.contains(path) {
                    #expect((operation["security"] as? [Any])?.isEmpty == true, "\(method) \(path)")
                    #expect(responses["401"] == nil, "\(method) \(path)")
                } else {
                    #expect(operation["security"] == nil, "\(method) \(path)")
                    #expect(responses["401"] != nil, "\(method) \(path) does not document 401")
                }
            }
        }
    }

    @Test func everyReferenceResolves() throws {
        let document = try #require(try Yams.load(yaml: AdminAPIDocument.yaml) as? [String: Any])
        var references: [String] = []
        func collect(_ node: Any) {
            if let object = node as? [String: Any] {
                if let reference = object["$ref"] as? String { references.append(reference) }
                object.values.forEach(collect)
            } else if let array = node as? [Any] {
                array.forEach(collect)
            }
        }
        collect(document)
        #expect(!references.isEmpty)
        for reference in references {
            var node: Any? = document
            for step in reference.dropFirst(2).split(separator: "/") {
                node = (node as? [String: Any])?[String(step)]
            }
            #expect(node != nil, "\(reference) does not resolve")
        }
    }

    @Test func servedAsYAMLWithUnknownPathsAndMethodsAnsweredInTheErrorJSON() async throws {
        let (router, executor) = Self.makeRouter()
        defer { Task { await executor.shutdown() } }
        let app = Application(router: router)
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/openapi.yaml", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/yaml")
                #expect(String(buffer: response.body) == AdminAPIDocument.yaml)
            }
            try await client.execute(uri: "/v1/nothing", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/json")
                #expect(String(buffer: response.body).contains(#""code":"notFound""#))
            }
            try await client.execute(uri: "/v1/devices/abcd", method: .patch) { response in
                #expect(response.status == .methodNotAllowed)
                let allowed = Set((response.headers[.allow] ?? "").split(separator: ", ").map(String.init))
                #expect(allowed == ["GET", "PUT", "DELETE"])
                #expect(String(buffer: response.body).contains(#""code":"methodNotAllowed""#))
            }
            try await client.execute(uri: "/v1/deliveries/wait", method: .post) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET")
            }
        }
    }

    /// `Sources/APNSMockAdmin/openapi.yaml`, read from the checkout.
    static func documentFile() throws -> [UInt8] {
        var path = #filePath.split(separator: "/").map(String.init)
        path.removeLast(3)
        let file = "/" + path.joined(separator: "/") + "/Sources/APNSMockAdmin/openapi.yaml"
        return Array(try #require(FileManager.default.contents(atPath: file), "cannot read \(file)"))
    }

    /// The embedded document is the file in the repository, and the server sends it unchanged.
    @Test func servedBytesAreTheFileInTheRepository() async throws {
        let file = try Self.documentFile()
        #expect(file.count > 10_000)
        #expect(Array(AdminAPIDocument.yaml.utf8) == file)
        let (router, executor) = Self.makeRouter()
        defer { Task { await executor.shutdown() } }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: AdminAPIDocument.path, method: .get) { response in
                #expect(response.status == .ok)
                #expect(Array(buffer: response.body) == file)
            }
        }
    }

    /// The limits and lint codes the document names are the code's: the YAML file cannot
    /// interpolate them, so a change on either side fails here.
    @Test func limitsAndLintCodesAreTheCodes() throws {
        let document = try #require(try Yams.load(yaml: AdminAPIDocument.yaml) as? [String: Any])
        func node(_ steps: [Any]) -> Any? {
            var node: Any? = document
            for step in steps {
                if let key = step as? String {
                    node = (node as? [String: Any])?[key]
                } else if let name = step as? Named {
                    node = (node as? [[String: Any]])?.first { ($0["name"] ?? $0["title"]) as? String == name.name }
                } else if let index = step as? Int {
                    node = (node as? [Any]).flatMap { index < $0.count ? $0[index] : nil }
                }
            }
            return node
        }
        func integer(_ steps: Any...) -> Int? { node(steps) as? Int }
        func text(_ steps: Any...) -> String { node(steps) as? String ?? "" }
        let maximumWait = Int(AdminRouter.maximumWaitSeconds)

        let list = ["paths", "/v1/deliveries", "get", "parameters", Named("limit"), "schema"] as [Any]
        #expect(integer(list + ["maximum"]) == DeliveryQueryParser.maximumLimit)
        #expect(integer(list + ["default"]) == DeliveryQueryParser.defaultLimit)
        let wait = ["paths", "/v1/deliveries/wait", "get", "parameters"] as [Any]
        #expect(integer(wait + [Named("count"), "schema", "maximum"]) == DeliveryQueryParser.maximumLimit)
        #expect(text(wait + [Named("timeout"), "description"]).contains("at most \(maximumWait) seconds"))

        let schemas = ["components", "schemas"] as [Any]
        let goaway = schemas + ["FaultAction", "properties", "goaway"]
        let debugLimit = FaultEffect.goAwayDebugDataLimit
        #expect(text(goaway + ["description"]).contains("at most \(debugLimit) bytes"))
        #expect(integer(goaway + ["properties", "debug", "maxLength"]) == debugLimit)
        // The reason goes out inside `{"reason":"…"}`: 13 bytes of the debug data are not its own.
        #expect(integer(goaway + ["properties", "reason", "maxLength"]) == debugLimit - #"{"reason":""}"#.utf8.count)
        // The GOAWAY's order (issue 29): the names and the default are the code's.
        #expect(node(goaway + ["properties", "order", "enum"]) as? [String] == GoAwayOrder.names)
        #expect(text(goaway + ["properties", "order", "default"]) == GoAwayOrder.default.rawValue)
        let dataFrames = schemas + ["FaultResponse", "oneOf", Named("error"), "properties", "dataFrames", "maximum"]
        #expect(node(dataFrames) as? Int == FaultResponse.dataFramesLimit)

        let queryDuration = text(schemas + ["QueryDuration", "description"]).replacingOccurrences(of: "\n", with: " ")
        #expect(queryDuration.contains("at most \(maximumWait) seconds"), "\(queryDuration)")
        let duration = text(schemas + ["Duration", "description"]).replacingOccurrences(of: "\n", with: " ")
        #expect(duration.contains("at most \(maximumWait) seconds"), "\(duration)")
        #expect(integer(schemas + ["Duration", "oneOf", 0, "maximum"]) == maximumWait)

        let lintFilter = try #require(node(schemas + ["LintFilter", "enum"]) as? [String])
        #expect(lintFilter == ["error", "warning", "clean"] + LintCode.all.map(\.rawValue))
    }

    /// A step that picks the element of a list whose `name` (a parameter) or `title` (a
    /// schema) is `name`.
    struct Named {
        var name: String
        init(_ name: String) { self.name = name }
    }

    @Test func verifyBodies() throws {
        #expect(try AdminRouter.verifyBody(Array(#"{"expect":[]}"#.utf8)).isEmpty)
        #expect(try AdminRouter.verifyBody(Array("[]".utf8)).isEmpty)
        let within = try AdminRouter.verifyBody(Array(#"[{"name":"a","match":{},"within":1e-3}]"#.utf8))
        #expect(within.first?.within == 0.001)
        for bad in [
            #"{"expect":[],"other":1}"#, #"{}"#, "nope",
            #"[{"name":"a","inOrder":true,"within":"1s","steps":[{"match":{},"within":"301s"}]}]"#,
            #"[{"name":"a","match":{},"within":"5m1s"}]"#, #"[{"name":"a","match":{},"within":"301"}]"#,
        ] {
            #expect(throws: AdminError.badRequest("")) { try AdminRouter.verifyBody(Array(bad.utf8)) }
        }
    }

    /// The `Delivery` schema lists the record's JSON keys as the field table defines them
    /// (`DeliveryRecord.Field.definition`), and every one of them is required.
    @Test func theDeliverySchemaIsTheRecordFieldTable() throws {
        let document = try #require(try Yams.load(yaml: AdminAPIDocument.yaml) as? [String: Any])
        let components = try #require(document["components"] as? [String: Any])
        let schemas = try #require(components["schemas"] as? [String: Any])
        let delivery = try #require(schemas["Delivery"] as? [String: Any])
        let properties = try #require(delivery["properties"] as? [String: Any])
        let expected =
            [DeliveryRecordJSON.summaryKey.description] + DeliveryRecord.jsonKeys + DeliveryRecordJSON.analysisKeys
        #expect(Set(properties.keys) == Set(expected))
        #expect(Set(delivery["required"] as? [String] ?? []) == Set(expected))
    }

    /// The `BatchEvent` schema lists the keys a `batch` event's data has, every one required,
    /// and `behind` takes the values the route reads.
    @Test func theBatchEventSchemaIsWhatTheStreamWrites() throws {
        let document = try #require(try Yams.load(yaml: AdminAPIDocument.yaml) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let batch = try #require(schemas["BatchEvent"] as? [String: Any])
        let properties = try #require(batch["properties"] as? [String: Any])
        let event = String(
            decoding: DeliveryEventStream.batchEvent(
                DeliverySummary(from: 1, to: 2, count: 1, byStatus: [200: 1], byOutcome: [.answered: 1])),
            as: UTF8.self)
        let data = try #require(event.split(separator: "\n").first { $0.hasPrefix("data: ") }?.dropFirst(6))
        let written = try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
        #expect(Set(properties.keys) == Set(written.keys))
        #expect(Set(batch["required"] as? [String] ?? []) == Set(written.keys))
        let paths = try #require(document["paths"] as? [String: Any])
        let events = try #require((paths["/v1/events"] as? [String: Any])?["get"] as? [String: Any])
        let behind = try #require(
            (events["parameters"] as? [[String: Any]])?.first { $0["name"] as? String == "behind" })
        let values = (behind["schema"] as? [String: Any])?["enum"] as? [String]
        #expect(values == DeliveryEventStream.Behind.allCases.map(\.rawValue))
    }

    /// The `FaultAction` schema names `delay` and every action `FaultEffect.names` reads, and
    /// nothing else.
    @Test func theFaultActionSchemaIsTheActionsTheRulesRead() throws {
        let document = try #require(try Yams.load(yaml: AdminAPIDocument.yaml) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let action = try #require(schemas["FaultAction"] as? [String: Any])
        let properties = try #require(action["properties"] as? [String: Any])
        #expect(Set(properties.keys) == Set(["delay"] + FaultEffect.names))
    }

    /// The `Channel` schema lists the keys `ChannelSpec.write` writes, every one required; the
    /// channel-id schema's length is `ChannelID`'s; the body's fields are `ChannelSpec`'s.
    @Test func theChannelSchemasAreTheCodes() throws {
        let document = try #require(try Yams.load(yaml: AdminAPIDocument.yaml) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let channel = try #require(schemas["Channel"] as? [String: Any])
        #expect(Set((channel["properties"] as? [String: Any] ?? [:]).keys) == Set(ChannelSpec.jsonKeys))
        #expect(channel["required"] as? [String] == ChannelSpec.jsonKeys)
        let body = try #require(schemas["ChannelBody"] as? [String: Any])
        #expect(Set((body["properties"] as? [String: Any] ?? [:]).keys) == Set(ChannelSpec.bodyFields))
        let id = try #require(schemas["ChannelID"] as? [String: Any])
        #expect(id["maxLength"] as? Int == (ChannelID.maximumBytes + 2) / 3 * 4)
        let pattern = try Regex(try #require(id["pattern"] as? String))
        let full = String(repeating: "A", count: 84)  // 63 bytes
        for valid in [
            "AAAA", "ab/+cd/+ef==", "dGVzdC1jaGFubmVsLTE=", full + "AA==", full, String(full.dropLast(4)) + "AAA=",
        ] {
            let matches = try pattern.wholeMatch(in: valid) != nil
            #expect(ChannelID.isValid(valid) && matches, "\(valid)")
        }
        // 65 and 66 bytes: one over the limit (schemathesis found the first allowed by an
        // earlier pattern and refused by the server).
        for invalid in ["", "abc", "ab=c", "a===", "AA==AAAA", "ab cd===", full + "AAA=", full + "AAAA"] {
            let matches = try pattern.wholeMatch(in: invalid) != nil
            #expect(!ChannelID.isValid(invalid) && !matches, "\(invalid)")
        }
    }
}
