/// The sentences of a rejection's `detail` that several rule sets share: why a request was
/// refused, in words a developer can act on. Built only for a rejection, never for an accepted
/// request. Each names the value that failed and the rule it broke.
enum RejectionWords {
    /// `values` quoted and joined: `'a', 'b'`; `none` when empty.
    static func list(_ values: [String]) -> String {
        values.isEmpty ? "none" : values.map { "'\($0)'" }.joined(separator: ", ")
    }

    /// A value as sent, cut to a readable length.
    static func quoted(_ value: some StringProtocol, limit: Int = 80) -> String {
        value.count <= limit ? "'\(value)'" : "'\(value.prefix(limit))…' (\(value.utf8.count) bytes)"
    }

    static func headerListTooLarge(policy: ValidationPolicy) -> String {
        "the request's header list is larger than the SETTINGS_MAX_HEADER_LIST_SIZE the mock announced "
            + "(--max-header-list-size, default 8000)"
    }

    static func malformedToken(_ raw: String) -> String {
        "the device token \(quoted(raw)) is not even-length hex of \(DeviceToken.minimumBytes)–"
            + "\(DeviceToken.maximumBytes) bytes"
    }

    static func duplicateHeaders(_ request: APNSRequest) -> String {
        var seen: Set<String> = []
        var repeated: [String] = []
        for field in request.headerBlock.fields {
            let name = field.name.lowercased()
            guard name == "authorization" || name.hasPrefix("apns-") else { continue }
            if !seen.insert(name).inserted, !repeated.contains(name) { repeated.append(name) }
        }
        return "\(list(repeated)) \(repeated.count == 1 ? "is" : "are") sent more than once"
    }

    static func badMessageID(_ id: String, header: String) -> String {
        "\(header) is \(quoted(id)); it must be a UUID written 8-4-4-4-12 in hex"
    }

    static func badPriority(_ raw: String) -> String {
        "apns-priority is \(quoted(raw)); APNs accepts 10, 5 or 1"
    }

    static func badExpiration(_ raw: String) -> String {
        "apns-expiration is \(quoted(raw)); it must be a UNIX time in whole seconds (0: deliver once, don't store)"
    }

    /// The size of a payload over its limit as the request says it: its `content-length` when
    /// that is larger than what arrived, "more than" what arrived when the mock answered before
    /// the body's end (`complete` false), else what arrived.
    static func payloadTooLarge(
        size: Int, complete: Bool = true, contentLength: String? = nil, limit: Int, what: String, overridden: Bool
    ) -> String {
        let sizeText: String
        if let declared = contentLength.flatMap({ Int($0) }), declared > size {
            sizeText = "\(declared) bytes (content-length)"
        } else if !complete {
            sizeText = "more than \(size) bytes (answered before the body's end)"
        } else {
            sizeText = "\(size) bytes"
        }
        return "the payload is \(sizeText); \(what) may have at most \(limit)"
            + (overridden ? " (--payload-limit)" : "")
    }

    static let notAJSONObject = "the payload is not a JSON object (--strict-payload is on)"
    static let broadcastNotAJSONObject = "the payload is not a JSON object; APNs parses a broadcast's payload"

    static func lintErrors(_ analysis: PayloadAnalysis) -> String {
        let codes = analysis.findings.filter { $0.code.severity == .error }.map(\.code.rawValue)
        return "payload lint found errors (\(codes.joined(separator: ", "))) and --strict-payload is on"
    }

    static func badPath(_ path: String, expected: String) -> String {
        "the path \(quoted(path)) is not \(expected)"
    }
}
