import APNSMockCore

extension FuzzTarget {
    /// Bytes as JSON, through both of the project's readers, which must agree: the syntax check
    /// (`JSONSyntax`, for payload kinds) accepts exactly what the parser (`JSONValue`) parses,
    /// and calls an object an object. A parsed value written back (`jsonText`) parses to itself.
    static let json = FuzzTarget(
        name: "json",
        summary: "bytes -> JSONSyntax.check, JSONValue.parse, JSONWriter round trip, PayloadKind",
        maximumLength: 4096
    ) { bytes in
        let syntax = bytes.withUnsafeBufferPointer { JSONSyntax.check($0) }
        let value = JSONValue.parse(bytes)
        _ = PayloadKind.classify(bytes)
        guard let value else {
            precondition(syntax == .invalid, "JSONSyntax accepts what JSONValue rejects")
            return
        }
        if case .object = value {
            precondition(syntax == .object, "JSONSyntax does not see an object")
        } else {
            precondition(syntax == .otherValue, "JSONSyntax rejects or misreads a value JSONValue parses")
        }
        let written = value.jsonText
        guard let reparsed = JSONValue.parse(written) else {
            preconditionFailure("JSONValue's own text does not parse: \(written)")
        }
        precondition(reparsed == value, "JSONValue's own text parses to another value: \(written)")
    }
}
