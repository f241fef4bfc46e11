/// Why `HTTP1RequestParser` could not read a request: the status to answer before closing the
/// connection (400, 413, 431, 501 or 505) and, in plain words, what was wrong.
public struct HTTP1ParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status that answers it.
    public var status: Int
    /// What was wrong, for the answer's body, the log and the record.
    public var detail: String

    public init(status: Int, _ detail: String) {
        self.status = status
        self.detail = detail
    }

    public var description: String { "\(status): \(detail)" }
}
