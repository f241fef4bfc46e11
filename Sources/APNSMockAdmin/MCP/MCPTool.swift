import APNSMockCore

/// One tool the admin API offers over MCP: its name, what it does, its arguments, and the one
/// admin call it makes of them.
struct MCPTool: Sendable {
    /// One argument: its name, its JSON Schema (without description) and what it means.
    struct Argument: Sendable {
        var name: String
        var schema: String
        var description: String
        var required = false
    }

    var name: String
    var title: String
    var description: String
    var arguments: [Argument]
    /// The admin call the arguments make.
    var call: @Sendable (MCPArguments) throws(MCPToolError) -> AdminCall
    /// Words put before the admin API's answer (an explanation of a record), if any.
    var preface: (@Sendable (AdminCallResult) -> String?)?

    init(
        name: String, title: String, description: String, arguments: [Argument] = [],
        call: @escaping @Sendable (MCPArguments) throws(MCPToolError) -> AdminCall,
        preface: (@Sendable (AdminCallResult) -> String?)? = nil
    ) {
        self.name = name
        self.title = title
        self.description = description
        self.arguments = arguments
        self.call = call
        self.preface = preface
    }

    /// `{"name", "title", "description", "inputSchema"}` as `tools/list` lists it.
    var listing: JSONValue {
        var properties: [(key: String, value: JSONValue)] = []
        for argument in arguments {
            guard case .object(var schema) = JSONValue.parse(argument.schema) ?? .null else {
                preconditionFailure("the schema of \(name)'s argument \(argument.name) is not a JSON object")
            }
            schema.append((key: "description", value: .string(argument.description)))
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
