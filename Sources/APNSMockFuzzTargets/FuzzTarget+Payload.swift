import APNSMockCore

extension FuzzTarget {
    /// A payload linted and previewed under a context chosen by its first byte (bits 0–3 the push
    /// type, none when past the last; bit 4 priority 5; bit 5 a broadcast; bit 6 English strings
    /// for the `loc-key`s; bit 7 the payload counted as truncated). The findings and the preview
    /// are written as the admin API writes them, and that JSON must parse.
    static let payload = FuzzTarget(
        name: "payload",
        summary: "context byte + payload bytes -> PayloadAnalyzer (lint, preview), their JSON",
        maximumLength: 6144
    ) { bytes in
        var input = FuzzInput(bytes)
        let flags = input.byte()
        let payload = input.rest()
        let types = APNSPushType.allCases
        let pushType = Int(flags & 0x0F) < types.count ? types[Int(flags & 0x0F)] : nil
        let priority = flags & 0x10 != 0 ? "5" : "10"
        let strings = flags & 0x40 != 0 ? englishStrings : nil
        let context =
            flags & 0x20 != 0
            ? PayloadContext.broadcast(priority: priority, strings: strings)
            : PayloadContext(
                pushType: pushType, pushTypeHeaderPresent: pushType != nil, priority: priority,
                topic: FuzzFixtures.topic + (pushType?.requiredTopicSuffix ?? ""), strings: strings)
        let size = payload.count + (flags & 0x80 != 0 ? 100 : 0)
        let analysis = PayloadAnalyzer.analyze(payload: payload, payloadSize: size, context: context)
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.key("lint")
        writer.beginArray()
        for finding in analysis.findings { finding.write(to: &writer) }
        writer.endArray()
        writer.key("preview")
        if let preview = analysis.preview { preview.write(to: &writer) } else { writer.null() }
        writer.endObject()
        precondition(JSONValue.parse(writer.bytes) != nil, "lint and preview JSON does not parse")
        _ = PayloadAnalyzer.inputPushChannel(in: payload)
    }

    /// English strings with the format specifiers previews fill in.
    private static let englishStrings = LocalizedStrings(
        locale: "en",
        strings: [
            "GAME_PLAY_REQUEST_FORMAT": "%@ and %@ have invited you to play Monopoly",
            "GAME_TITLE": "Game Request",
            "SALE": "%@%% off today",
            "ORDER": "%2$@ before %1$@, %3$d items, %ld%%, %.2f",
        ])
}
