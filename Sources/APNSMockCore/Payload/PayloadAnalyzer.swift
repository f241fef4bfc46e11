/// Lints a notification payload against what APNs and devices expect, and previews what a
/// device would show. Pure: bytes and a context in, an analysis out.
///
/// Findings come in three groups: the whole payload (size, emptiness, JSON, the `aps`
/// dictionary), then the keys of `aps` in document order, then the payload against the headers
/// (push type, topic, priority). The rules follow Apple's payload key reference and "Sending
/// notification requests to APNs"; `LintCode` lists them.
public enum PayloadAnalyzer {
    /// Analyzes a payload.
    ///
    /// - Parameters:
    ///   - payload: The bytes kept (all of them, or the first ones of an oversized payload).
    ///   - payloadSize: The number of bytes received; larger than `payload.count` when the
    ///     payload was truncated.
    ///   - context: The headers as judged, a size-limit override and the device's strings.
    public static func analyze(payload: [UInt8], payloadSize: Int, context: PayloadContext) -> PayloadAnalysis {
        let limit = context.effectiveLimit
        var linter = PayloadLinter(context: context)
        var preview: NotificationPreview?
        var aps: [(key: String, value: JSONValue)]?
        var inputPushChannel: String?

        linter.checkSize(byteCount: payloadSize, limit: limit)
        if payloadSize <= 0 && payload.isEmpty {
            linter.add(.payloadEmpty, "", "The payload is empty, but APNs needs a JSON dictionary.")
        } else {
            let truncated = payload.count < payloadSize
            if truncated {
                linter.add(
                    .payloadTruncated, "",
                    "Only the first \(payload.count) of the payload's \(payloadSize) bytes were kept, "
                        + "so the rest was not checked.")
            }
            switch JSONValue.parse(payload) {
            case nil:
                if !truncated {
                    linter.add(.payloadNotJSON, "", "The payload is not valid JSON, so devices cannot read it.")
                }
            case let root? where root.lintIsObject:
                preview = NotificationPreview(payload: root, strings: context.strings)
                aps = linter.checkRoot(root)
                inputPushChannel = Self.inputPushChannel(in: root)
            case let other?:
                linter.add(
                    .payloadNotObject, "",
                    "The payload is \(other.lintDescription), but APNs needs a JSON dictionary.")
            }
        }
        linter.checkAgainstHeaders(aps: aps, preview: preview)
        return PayloadAnalysis(
            findings: linter.findings, preview: preview, byteCount: payloadSize, limit: limit,
            inputPushChannel: inputPushChannel)
    }

    /// `aps["input-push-channel"]` of a parsed payload when it is a string: the channel id a
    /// push-to-start asks the started Live Activity to subscribe to (ActivityKit's "Starting and
    /// updating Live Activities with ActivityKit push notifications"; APNS-REFERENCE §6).
    public static func inputPushChannel(in payload: JSONValue) -> String? {
        guard case .string(let id)? = payload["aps"]?["input-push-channel"] else { return nil }
        return id
    }

    /// The same from a payload's bytes (`nil` when they are not a JSON object).
    public static func inputPushChannel(in payload: [UInt8]) -> String? {
        JSONValue.parse(payload).flatMap { inputPushChannel(in: $0) }
    }
}
