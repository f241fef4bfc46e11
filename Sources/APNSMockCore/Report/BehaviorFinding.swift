/// One finding of the provider-behaviour report: a code (with its severity, threshold and
/// source), how many times it happened, a sentence with the numbers, and a few example
/// deliveries by `apns-id`.
public struct BehaviorFinding: Sendable, Hashable {
    public var code: BehaviorCode
    /// How many pushes (or connections, or refused streams: the message says which) it counts.
    public var count: Int
    /// One sentence with the numbers.
    public var message: String
    /// The `apns-id`s of a few deliveries that show it, oldest first.
    public var examples: [String]

    public init(code: BehaviorCode, count: Int, message: String, examples: [String] = []) {
        self.code = code
        self.count = count
        self.message = message
        self.examples = examples
    }

    public var severity: BehaviorSeverity { code.severity }

    /// Writes the finding's JSON object.
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("code")
        json.string(code.rawValue)
        json.key("severity")
        json.string(severity.rawValue)
        json.key("count")
        json.number(count)
        json.key("message")
        json.string(message)
        json.key("threshold")
        json.string(code.threshold)
        json.key("source")
        json.string(code.source)
        json.key("examples")
        json.beginArray()
        for example in examples { json.string(example) }
        json.endArray()
        json.endObject()
    }
}
