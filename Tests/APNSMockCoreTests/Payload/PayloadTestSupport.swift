import APNSMockCore

/// Shorthands for the payload-analysis tests.
enum PayloadTestSupport {
    /// Analyzes `json` as received in full.
    static func analyze(_ json: String, _ context: PayloadContext = PayloadContext()) -> PayloadAnalysis {
        let bytes = Array(json.utf8)
        return PayloadAnalyzer.analyze(payload: bytes, payloadSize: bytes.count, context: context)
    }

    /// The English strings the localized fixtures use.
    static let english = LocalizedStrings(
        locale: "en",
        strings: [
            "FOOD_ORDERED": "Your order is ready",
            "FOOD_PICKUP_TIME": "You can pick up your order at %@.",
            "GAME_PLAY_REQUEST_FORMAT": "%@ and %@ have invited you to play Monopoly",
            "PLAY": "Play",
            "INVITE_TITLE": "Invitation from %1$@",
            "SWAPPED": "%2$@ replied to %1$@",
            "DISCOUNT": "%@ %% off",
            "NO_ARGS": "Welcome back",
        ])

    /// A string of `count` bytes: `{"aps":{"alert":"xxx…"}}` padded to the size.
    static func payload(bytes count: Int) -> String {
        let frame = #"{"aps":{"alert":""}}"#
        return #"{"aps":{"alert":""# + String(repeating: "x", count: count - frame.utf8.count) + #""}}"#
    }
}
