import APNSMockCore

/// One tool the admin API offers over MCP: its name, what it does, the operation of the admin
/// API's document it calls, and its arguments, taken from that operation: each path and query
/// parameter by its name, schema and description, the free-form matcher conditions as `match`,
/// and the JSON body as one argument.
struct MCPTool: Sendable {
    /// One argument: its name, its JSON Schema (without description), what it means, and
    /// where its value goes in the admin call.
    struct Argument: Sendable {
        /// Where an argument's value goes.
        enum Role: Sendable, Equatable {
            /// A path parameter of the operation.
            case path
            /// A query parameter; `repeats`: a list gives the parameter once per element (a
            /// matcher field: each one more condition).
            case query(repeats: Bool)
            /// Matcher conditions as an object, flattened into query parameters.
            case match
            /// The request body, as given.
            case body
            /// The tool's own (not sent as such: `add_fault`'s `replace`).
            case option
        }

        var name: String
        var schema: JSONValue
        var description: String
        var required = false
        var role: Role
        /// The JSON types a value may have (`"integer"`, `"string"`, `"object"`, …), from the
        /// document's schema; empty: any.
        var types: Set<String> = []
    }

    var name: String
    var title: String
    var description: String
    /// The operation the tool calls.
    var operation: AdminOperation
    var arguments: [Argument]
    /// The admin call the arguments make.
    var call: @Sendable (MCPArguments) throws(MCPToolError) -> AdminCall
    /// Words put before the admin API's answer (an explanation of a record), if any.
    var preface: (@Sendable (AdminCallResult) -> String?)?

    /// A tool calling `operation`, its arguments the operation's parameters (and `match` for its
    /// free-form conditions), its body as `body` when it has one, then `options`.
    /// - Parameters:
    ///   - description: what the tool does; the operation's method and path follow it (or `route`).
    ///   - call: the admin call, when it is not `operation` with the arguments in their places.
    init(
        name: String, title: String, description: String, operation: AdminOperation, body: String? = nil,
        options: [Argument] = [], route: String? = nil,
        call: (@Sendable (MCPArguments) throws(MCPToolError) -> AdminCall)? = nil,
        preface: (@Sendable (AdminCallResult) -> String?)? = nil
    ) {
        self.name = name
        self.title = title
        self.description = description + " " + (route ?? "\(operation.method) \(operation.path).")
        self.operation = operation
        let arguments = Self.arguments(of: operation, body: body) + options
        self.arguments = arguments
        if let call {
            self.call = call
        } else {
            self.call = { values throws(MCPToolError) in try values.adminCall(operation, arguments: arguments) }
        }
        self.preface = preface
    }

    /// The arguments of `operation`: `match` first when it takes free-form matcher conditions,
    /// then its path and query parameters in the document's order, then its body as `body`.
    static func arguments(of operation: AdminOperation, body: String?) -> [Argument] {
        var arguments: [Argument] = []
        for parameter in operation.parameters where parameter.location != .header {
            if parameter.isFreeForm {
                let description =
                    prose(parameter.description)
                    + " Nested objects are flattened with dots: {\"payload\": {\"aps\": {\"alert\": {\"title\": \"Hi\"}}}} is payload.aps.alert.title=Hi, {\"headers\": {\"apns-priority\": \"5\"}} is headers.apns-priority=5. Any other matcher field may be given here too ({\"status\": 410}); a list gives the field once per value, each one more condition."
                arguments.insert(
                    Argument(
                        name: "match", schema: .object([(key: "type", value: .string("object"))]),
                        description: description, role: .match),
                    at: 0)
                continue
            }
            let schema = JSONValue.parse(parameter.schema) ?? .object([])
            let repeats = parameter.location == .query && DeliveryMatcher.isQueryField(parameter.name)
            arguments.append(
                Argument(
                    name: parameter.name,
                    schema: repeats ? listOrOne(withoutDescription(schema)) : withoutDescription(schema),
                    description: prose(
                        parameter.description.isEmpty ? schema["description"]?.scalarText ?? "" : parameter.description),
                    required: parameter.required,
                    role: parameter.location == .path ? .path : .query(repeats: repeats),
                    types: types(of: schema)))
        }
        if let body, let text = operation.requestBodySchema {
            let schema = JSONValue.parse(text) ?? .object([])
            let said = schema["description"]?.scalarText.map(prose) ?? ""
            arguments.append(
                Argument(
                    name: body, schema: withoutDescription(schema),
                    description: "The body of \(operation.method) \(operation.path): \(prose(operation.summary))"
                        + (said.isEmpty ? "" : " " + said),
                    required: operation.requestBodyRequired, role: .body, types: types(of: schema)))
        }
        return arguments
    }

    /// The JSON types `schema` allows: its `type`, or the union of its `oneOf`/`anyOf`
    /// alternatives' when each has one; empty: any.
    static func types(of schema: JSONValue) -> Set<String> {
        switch schema["type"] {
        case .string(let type)?: return [type]
        case .array(let types)?: return Set(types.compactMap(\.scalarText))
        default: break
        }
        for key in ["oneOf", "anyOf"] {
            guard case .array(let alternatives)? = schema[key] else { continue }
            var union: Set<String> = []
            for alternative in alternatives {
                let types = types(of: alternative)
                guard !types.isEmpty else { return [] }
                union.formUnion(types)
            }
            return union
        }
        return []
    }

    /// `schema`, or a list of one or more values it allows.
    static func listOrOne(_ schema: JSONValue) -> JSONValue {
        .object([
            (
                key: "anyOf",
                value: .array([
                    schema,
                    .object([
                        (key: "type", value: .string("array")), (key: "items", value: schema),
                        (key: "minItems", value: .integer(1)),
                    ]),
                ])
            )
        ])
    }

    /// `schema` without its top-level `description` (the argument's goes in its place).
    static func withoutDescription(_ schema: JSONValue) -> JSONValue {
        guard case .object(let members) = schema else { return schema }
        return .object(members.filter { $0.key != "description" })
    }

    /// A description from the document's YAML: lines of a paragraph joined, paragraphs kept.
    static func prose(_ text: String) -> String {
        text.split(separator: "\n\n", omittingEmptySubsequences: true)
            .map { $0.split(separator: "\n").map { $0.trimmingSpaces() }.joined(separator: " ") }
            .joined(separator: "\n\n")
            .trimmingSpaces()
    }

    /// `{"name", "title", "description", "inputSchema"}` as `tools/list` lists it.
    var listing: JSONValue {
        var properties: [(key: String, value: JSONValue)] = []
        for argument in arguments {
            guard case .object(var schema) = argument.schema else {
                preconditionFailure("the schema of \(name)'s argument \(argument.name) is not a JSON object")
            }
            if !argument.description.isEmpty {
                schema.append((key: "description", value: .string(argument.description)))
            }
            properties.append((key: argument.name, value: .object(schema)))
        }
        var inputSchema: [(key: String, value: JSONValue)] = [
            (key: "type", value: .string("object")),
            (key: "properties", value: .object(properties)),
            (key: "additionalProperties", value: .bool(false)),
        ]
        let required = arguments.filter(\.required).map { JSONValue.string($0.name) }
        if !required.isEmpty { inputSchema.append((key: "required", value: .array(required))) }
        return .object([
            (key: "name", value: .string(name)),
            (key: "title", value: .string(title)),
            (key: "description", value: .string(description)),
            (key: "inputSchema", value: .object(inputSchema)),
        ])
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and newlines.
    fileprivate func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
