import APNSMockCore

/// A tool call's `arguments`, read by name with their types checked; a name the tool does not
/// take, or a value of the wrong type, is an `MCPToolError` saying which.
struct MCPArguments: Sendable {
    private let members: [String: JSONValue]

    /// Reads `arguments` (a JSON object, or absent) for `tool`.
    /// - Throws: `MCPToolError` for arguments that are no object or name one `tool` does not take.
    init(_ arguments: JSONValue?, for tool: MCPTool) throws(MCPToolError) {
        guard let arguments, arguments != .null else {
            members = [:]
            try requireAll(of: tool)
            return
        }
        guard case .object(let pairs) = arguments else {
            throw MCPToolError("the arguments of \(tool.name) must be a JSON object; got \(arguments.jsonText)")
        }
        let known = tool.arguments.map(\.name)
        var members: [String: JSONValue] = [:]
        for (name, value) in pairs {
            guard known.contains(name) else {
                let takes = known.isEmpty ? "it takes none" : "it takes \(known.joined(separator: ", "))"
                throw MCPToolError(
                    "\(tool.name) has no argument '\(name)'\(NameSuggestion.didYouMean(name, among: known)); \(takes)")
            }
            members[name] = value
        }
        self.members = members
        try requireAll(of: tool)
    }

    private func requireAll(of tool: MCPTool) throws(MCPToolError) {
        for argument in tool.arguments where argument.required && members[argument.name] == nil {
            throw MCPToolError("\(tool.name) needs the argument '\(argument.name)': \(argument.description)")
        }
    }

    /// A string argument.
    func string(_ name: String) throws(MCPToolError) -> String? {
        guard let value = members[name], value != .null else { return nil }
        guard case .string(let text) = value else {
            throw MCPToolError("argument '\(name)' must be a string; got \(value.jsonText)")
        }
        return text
    }

    /// A boolean argument.
    func bool(_ name: String) throws(MCPToolError) -> Bool? {
        guard let value = members[name], value != .null else { return nil }
        guard case .bool(let flag) = value else {
            throw MCPToolError("argument '\(name)' must be true or false; got \(value.jsonText)")
        }
        return flag
    }

    /// A JSON object argument, as given.
    func object(_ name: String) throws(MCPToolError) -> JSONValue? {
        guard let value = members[name], value != .null else { return nil }
        guard case .object = value else {
            throw MCPToolError("argument '\(name)' must be a JSON object; got \(value.jsonText)")
        }
        return value
    }

    /// Any JSON value, as given.
    func value(_ name: String) -> JSONValue? { members[name] }

    /// The admin call of `operation` with `arguments` in their places: path parameters in the
    /// path (percent-encoded), then the query: `match`'s conditions, then each query parameter
    /// given, in the document's order; the body argument as the body.
    /// - Throws: `MCPToolError` for a value of the wrong type.
    func adminCall(_ operation: AdminOperation, arguments: [MCPTool.Argument]) throws(MCPToolError) -> AdminCall {
        var path = operation.path
        var query: [AdminCall.Query] = []
        var body: JSONValue?
        for argument in arguments where argument.role == .match {
            query += try matchQuery(argument.name)
        }
        for argument in arguments {
            guard let value = members[argument.name], value != .null else { continue }
            switch argument.role {
            case .path:
                let text = try Self.text(value, argument: argument)
                path = path.replacing("{\(argument.name)}", with: AdminCall.encode(text))
            case .query(let repeats):
                if case .array(let elements) = value, repeats {
                    for element in elements {
                        query.append(
                            AdminCall.Query(name: argument.name, value: try Self.text(element, argument: argument)))
                    }
                } else {
                    query.append(AdminCall.Query(name: argument.name, value: try Self.text(value, argument: argument)))
                }
            case .body:
                try Self.check(value, isOneOf: argument.types, argument: argument.name)
                body = value
            case .match, .option:
                continue
            }
        }
        return AdminCall(method: operation.method, path: path, query: query, body: body)
    }

    /// A parameter's value as query or path text, its JSON type checked against the document's
    /// schema: a whole number for an `integer`, a number for a `number`, true or false for a
    /// `boolean`; a string parameter takes a string, or a number or boolean as written (a query
    /// string's values are all text).
    static func text(_ value: JSONValue, argument: MCPTool.Argument) throws(MCPToolError) -> String {
        let name = argument.name
        let types = argument.types
        switch value {
        case .number(let number, let text):
            if types.contains("integer") && !types.contains("number") {
                guard number.rounded() == number, abs(number) < 1e15 else {
                    throw MCPToolError("argument '\(name)' must be a whole number; got \(value.jsonText)")
                }
                return String(Int64(number))
            }
            guard types.isEmpty || types.contains("number") || types.contains("string") else { break }
            return text
        case .string(let text):
            guard types.isEmpty || types.contains("string") else { break }
            return text
        case .bool(let flag):
            guard types.isEmpty || types.contains("boolean") || types.contains("string") else { break }
            return flag ? "true" : "false"
        case .null, .array, .object:
            break
        }
        throw MCPToolError("argument '\(name)' must be \(Self.kinds(types)); got \(value.jsonText)")
    }

    /// Checks that `value` has one of the JSON `types` (any when empty).
    static func check(_ value: JSONValue, isOneOf types: Set<String>, argument name: String) throws(MCPToolError) {
        guard !types.isEmpty else { return }
        let type: String
        switch value {
        case .null: type = "null"
        case .bool: type = "boolean"
        case .number(let number, _): type = number.rounded() == number ? "integer" : "number"
        case .string: type = "string"
        case .array: type = "array"
        case .object: type = "object"
        }
        guard types.contains(type) || (type == "integer" && types.contains("number")) else {
            throw MCPToolError("argument '\(name)' must be \(kinds(types)); got \(value.jsonText)")
        }
    }

    /// `types` in words: "a whole number", "a JSON object or a JSON array".
    static func kinds(_ types: Set<String>) -> String {
        let words: [(String, String)] = [
            ("integer", "a whole number"), ("number", "a number"), ("string", "a string"),
            ("boolean", "true or false"), ("object", "a JSON object"), ("array", "a JSON array"), ("null", "null"),
        ]
        let said = words.filter { types.contains($0.0) }.map(\.1)
        return said.isEmpty ? "a string, a number or a boolean" : said.joined(separator: " or ")
    }

    /// The `match` argument as query parameters: each matcher field by its query name, nested
    /// objects flattened with dots (`{"payload": {"aps": {"badge": 3}}}` is `payload.aps.badge=3`,
    /// `{"headers": {"apns-priority": "5"}}` is `headers.apns-priority=5`), a list as the field
    /// once per element (each one more condition, as a repeated query parameter is).
    func matchQuery(_ name: String = "match") throws(MCPToolError) -> [AdminCall.Query] {
        guard let match = try object(name) else { return [] }
        var query: [AdminCall.Query] = []
        try Self.flatten(match, prefix: "", into: &query, argument: name)
        return query
    }

    private static func flatten(
        _ value: JSONValue, prefix: String, into query: inout [AdminCall.Query], argument: String, inList: Bool = false
    ) throws(MCPToolError) {
        switch value {
        case .object(let pairs) where !inList:
            for (key, member) in pairs {
                try flatten(member, prefix: prefix.isEmpty ? key : prefix + "." + key, into: &query, argument: argument)
            }
        case .array(let elements) where !inList && !prefix.isEmpty:
            for element in elements {
                try flatten(element, prefix: prefix, into: &query, argument: argument, inList: true)
            }
        case .string(let text): query.append(AdminCall.Query(name: prefix, value: text))
        case .number(_, let text): query.append(AdminCall.Query(name: prefix, value: text))
        case .bool(let flag): query.append(AdminCall.Query(name: prefix, value: flag ? "true" : "false"))
        case .null, .array, .object:
            throw MCPToolError(
                "in '\(argument)', '\(prefix)' must be a string, a number or a boolean (the value the field must have), or a list of them; got \(value.jsonText)"
            )
        }
    }
}
