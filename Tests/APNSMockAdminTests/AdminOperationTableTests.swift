import Foundation
import Testing
import Yams

@testable import APNSMockAdmin

/// The generated operation table (`Generated/AdminOperation.swift`) against the embedded document:
/// a hand-edit of the generated file, or a document changed without `make generate`, fails here.
@Suite struct AdminOperationTableTests {
    static let methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

    /// One operation as the document declares it, in the document's order.
    struct Documented {
        var operationId: String
        var method: String
        var path: String
        var summary: String
        var parameters: [(name: String, location: String, required: Bool)]
        var hasJSONBody: Bool
        var bodyRequired: Bool
    }

    static func documented() throws -> [Documented] {
        let document = try #require(try Yams.compose(yaml: AdminAPIDocument.yaml))
        let paths = try #require(document["paths"]?.mapping)
        let components = document["components"]?["parameters"]
        func parameter(_ node: Node) throws -> (name: String, location: String, required: Bool) {
            var node = node
            if let ref = node["$ref"]?.string {
                let name = try #require(ref.split(separator: "/").last.map(String.init))
                node = try #require(components?[name], "\(ref)")
            }
            let name = try #require(node["name"]?.string)
            let location = try #require(node["in"]?.string)
            return (name, location, node["required"]?.bool ?? (location == "path"))
        }
        var result: [Documented] = []
        for (pathNode, item) in paths {
            let path = try #require(pathNode.string)
            let shared = try (item["parameters"]?.sequence ?? []).map(parameter)
            for (methodNode, operation) in try #require(item.mapping) {
                let method = try #require(methodNode.string)
                guard Self.methods.contains(method) else { continue }
                var parameters = shared
                for own in try (operation["parameters"]?.sequence ?? []).map(parameter) {
                    if let index = parameters.firstIndex(where: { $0.name == own.name && $0.location == own.location })
                    {
                        parameters[index] = own
                    } else {
                        parameters.append(own)
                    }
                }
                let body = operation["requestBody"]
                let json = body?["content"]?["application/json"]
                result.append(
                    Documented(
                        operationId: try #require(operation["operationId"]?.string, "\(method) \(path)"),
                        method: method.uppercased(), path: path,
                        summary: operation["summary"]?.string ?? "",
                        parameters: parameters, hasJSONBody: json != nil,
                        bodyRequired: json != nil && (body?["required"]?.bool ?? false)))
            }
        }
        return result
    }

    @Test func everyOperationIsACaseWithTheDocumentsValuesInItsOrder() throws {
        let documented = try Self.documented()
        #expect(documented.count == AdminOperation.allCases.count)
        #expect(documented.map(\.operationId) == AdminOperation.allCases.map(\.rawValue))
        for operation in documented {
            let generated = try #require(AdminOperation(rawValue: operation.operationId), "\(operation.operationId)")
            #expect(generated.method == operation.method, "\(operation.operationId)")
            #expect(generated.path == operation.path, "\(operation.operationId)")
            #expect(generated.summary == operation.summary.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect((generated.requestBodySchema != nil) == operation.hasJSONBody, "\(operation.operationId)")
            #expect(generated.requestBodyRequired == operation.bodyRequired, "\(operation.operationId)")
        }
    }

    @Test func everyParameterIsThereWithItsLocationAndWhetherItIsRequired() throws {
        for operation in try Self.documented() {
            let generated = try #require(AdminOperation(rawValue: operation.operationId))
            #expect(generated.parameters.map(\.name) == operation.parameters.map(\.name), "\(operation.operationId)")
            #expect(
                generated.parameters.map(\.location.rawValue) == operation.parameters.map(\.location),
                "\(operation.operationId)")
            #expect(
                generated.parameters.map(\.required) == operation.parameters.map(\.required),
                "\(operation.operationId)")
        }
    }

    /// Every schema is JSON with its `$ref`s resolved, and only the free-form matcher is free-form.
    @Test func schemasAreJSONWithoutReferences() throws {
        for operation in AdminOperation.allCases {
            var texts = operation.parameters.map(\.schema)
            if let body = operation.requestBodySchema { texts.append(body) }
            for text in texts {
                let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
                #expect(parsed is [String: Any] || parsed is Bool, "\(operation): \(text)")
                #expect(!text.contains("\"$ref\""), "\(operation): \(text)")
            }
            for parameter in operation.parameters {
                #expect(
                    parameter.isFreeForm == (parameter.name == "headersAndPayload"), "\(operation) \(parameter.name)")
            }
        }
        let wait = AdminOperation.waitForDeliveries
        #expect(wait.method == "GET" && wait.path == "/v1/deliveries/wait")
        #expect(wait.parameters.contains { $0.name == "tokenPrefix" && $0.location == .query && !$0.required })
        let device = AdminOperation.getDevice.parameters
        #expect(device.map(\.name) == ["token"] && device.first?.location == .path && device.first?.required == true)
    }
}
