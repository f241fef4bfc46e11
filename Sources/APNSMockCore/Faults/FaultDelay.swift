/// How long a fault holds a stream before its answer: a fixed time or a uniform draw from a
/// range, in milliseconds.
///
/// JSON: `{"duration": "500ms"}` or `{"min": "100ms", "max": "900ms"}`.
public struct FaultDelay: Sendable, Hashable {
    /// The longest delay a rule may ask for: one hour, in milliseconds.
    public static let limitMilliseconds: Int64 = 3_600_000

    /// The delays that can be drawn, in milliseconds; a single value for a fixed delay.
    public var milliseconds: ClosedRange<Int64>

    /// A delay drawn uniformly from `milliseconds`.
    /// - Precondition: the range lies within `0...limitMilliseconds`.
    public init(milliseconds: ClosedRange<Int64>) {
        precondition(
            milliseconds.lowerBound >= 0 && milliseconds.upperBound <= Self.limitMilliseconds,
            "a fault delay must lie within 0...\(Self.limitMilliseconds) ms")
        self.milliseconds = milliseconds
    }

    /// A fixed delay of `milliseconds`.
    public init(milliseconds: Int64) { self.init(milliseconds: milliseconds...milliseconds) }

    /// Whether the delay is always the same (`duration` rather than `min` and `max`).
    public var isFixed: Bool { milliseconds.lowerBound == milliseconds.upperBound }

    /// One delay in milliseconds, uniform over `milliseconds`; a fixed delay draws nothing from
    /// `generator`.
    public func draw(using generator: inout some RandomNumberGenerator) -> Int64 {
        isFixed ? milliseconds.lowerBound : Int64.random(in: milliseconds, using: &generator)
    }

    /// Reads a `delay` object.
    /// - Parameter location: its key path, for messages (`action.delay`).
    /// - Throws: `FaultRuleError` naming the field.
    public init(json: JSONValue, at location: String) throws(FaultRuleError) {
        let fields = try FaultFieldReader(
            json, at: location, known: ["duration", "min", "max"],
            shape: #"an object such as {"duration": "500ms"} or {"min": "100ms", "max": "900ms"}"#)
        let range = 0...Self.limitMilliseconds
        let rangeText = "from 0ms to 1h"
        let duration = try fields.duration("duration", in: range, rangeText: rangeText)
        let minimum = try fields.duration("min", in: range, rangeText: rangeText)
        let maximum = try fields.duration("max", in: range, rangeText: rangeText)
        switch (duration, minimum, maximum) {
        case (let duration?, nil, nil):
            self.init(milliseconds: duration)
        case (nil, let minimum?, let maximum?):
            guard minimum <= maximum else {
                throw FaultRuleError("'\(fields.path("min"))' must not be longer than '\(fields.path("max"))'")
            }
            self.init(milliseconds: minimum...maximum)
        default:
            throw FaultRuleError("'\(location)' needs either 'duration' or both 'min' and 'max'")
        }
    }

    /// As a fault rule writes it: `{"duration": …}` when fixed, else `{"min": …, "max": …}`.
    public var json: JSONValue {
        if isFixed { return .object([("duration", .string(Self.format(milliseconds.lowerBound)))]) }
        return .object([
            ("min", .string(Self.format(milliseconds.lowerBound))),
            ("max", .string(Self.format(milliseconds.upperBound))),
        ])
    }

    /// `milliseconds` as duration text that reads back to the same number (`500ms`, `1.5s`, `2m`).
    static func format(_ milliseconds: Int64) -> String {
        DurationText.format(seconds: Double(milliseconds) / 1000)
    }
}
