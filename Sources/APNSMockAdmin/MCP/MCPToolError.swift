/// Why an MCP tool could not make its admin call: its arguments are wrong. It reaches the
/// client as a tool result with `isError`, in words, so an assistant can correct the call.
struct MCPToolError: Error, Sendable, Equatable {
    let message: String

    init(_ message: String) { self.message = message }
}
