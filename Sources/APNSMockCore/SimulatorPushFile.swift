/// A delivered payload as an `.apns` file for the iOS Simulator (`xcrun simctl push booted
/// FILE`, or dropped onto a Simulator window): the payload's own keys, with `Simulator Target
/// Bundle` first naming the app.
public enum SimulatorPushFile {
    /// The key the Simulator reads the app's bundle ID from.
    public static let targetBundleKey = "Simulator Target Bundle"

    /// Why a payload cannot become an `.apns` file.
    public enum Problem: Error, Sendable, Equatable {
        /// The payload is not a JSON object (an `.apns` file is one).
        case notAnObject
    }

    /// The bundle ID of `topic`: the topic without its push type's suffix (`.voip`,
    /// `.push-type.liveactivity`, …).
    public static func bundleID(topic: String, pushType: APNSPushType?) -> String {
        let suffixes =
            [pushType?.requiredTopicSuffix].compactMap { $0 }
            + APNSPushType.allCases.compactMap(\.requiredTopicSuffix)
        for suffix in suffixes where topic.hasSuffix(suffix) && topic.count > suffix.count {
            return String(topic.dropLast(suffix.count))
        }
        return topic
    }

    /// The file's bytes: `{"Simulator Target Bundle": …, <the payload's members>}`, pretty-printed
    /// is not needed (the Simulator reads any JSON). Without a topic the key is left out
    /// (`xcrun simctl push booted BUNDLE FILE` names the app then).
    /// - Throws: `Problem.notAnObject` for a payload that is no JSON object.
    public static func encode(payload: [UInt8], topic: String?, pushType: APNSPushType?) throws(Problem) -> [UInt8] {
        guard case .object(var members) = JSONValue.parse(payload) else { throw .notAnObject }
        members.removeAll { $0.key == targetBundleKey }
        if let topic { members.insert((targetBundleKey, .string(bundleID(topic: topic, pushType: pushType))), at: 0) }
        var writer = JSONWriter(capacity: payload.count + 64)
        JSONValue.object(members).write(to: &writer)
        return writer.bytes
    }
}
