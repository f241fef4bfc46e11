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

    /// A whole-number argument.
    func integer(_ name: String) throws(MCPToolError) -> Int64? {
        guard let value = members[name], value != .null else { return nil }
        guard case .number(let number, _) = value, number.rounded() == number, abs(number) < 1e15 else {
            throw MCPToolError("argument '\(name)' must be a whole number; got \(value.jsonText)")
        }
        return Int64(number)
    }

    /// A boolean argument.
    func bool(_ name: String) throws(MCPToolError) -> Bool? {
        guard let value = members[name], value != .null else { return nil }
        guard case .bool(let flag) = value else {
            throw MCPToolError("argument '\(name)' must be true or false; got \(value.jsonText)")
        }
        return flag
    }

    /// A duration: a string with a unit (`"500ms"`, `"5s"`, `"2m"`) or a number of seconds,
    /// as the admin API's query takes it.
    func duration(_ name: String) throws(MCPToolError) -> String? {
        guard let value = members[name], value != .null else { return nil }
        switch value {
        case .string(let text) where DurationText.seconds(text) != nil: return text
        case .number(_, let text): return text
        default:
            throw MCPToolError(
                "argument '\(name)' must be a duration such as \"500ms\", \"5s\" or \"2m\", or a number of seconds; got \(value.jsonText)"
            )
        }
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

    /// The `match` argument as query parameters: each matcher field by its query name, nested
    /// objects flattened with dots (`{"payload": {"aps": {"badge": 3}}}` is `payload.aps.badge=3`,
    /// `{"headers": {"apns-priority": "5"}}` is `headers.apns-priority=5`).
    func matchQuery(_ name: String = "match") throws(MCPToolError) -> [AdminCall.Query] {
        guard let match = try object(name) else { return [] }
        var query: [AdminCall.Query] = []
        try Self.flatten(match, prefix: "", into: &query, argument: name)
        return query
    }

    private static func flatten(
        _ value: JSONValue, prefix: String, into query: inout [AdminCall.Query], argument: String
    ) throws(MCPToolError) {
        switch value {
        case .object(let pairs):
            for (key, member) in pairs {
                try flatten(member, prefix: prefix.isEmpty ? key : prefix + "." + key, into: &query, argument: argument)
            }
        case .string(let text): query.append(AdminCall.Query(name: prefix, value: text))
        case .number(_, let text): query.append(AdminCall.Query(name: prefix, value: text))
        case .bool(let flag): query.append(AdminCall.Query(name: prefix, value: flag ? "true" : "false"))
        case .null, .array:
            throw MCPToolError(
                "in '\(argument)', '\(prefix)' must be a string, a number or a boolean (the value the field must have); got \(value.jsonText)"
            )
        }
    }
}
