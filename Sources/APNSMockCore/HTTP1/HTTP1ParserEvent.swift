/// What `HTTP1RequestParser.consume(_:)` found in the bytes it was given, in order.
public enum HTTP1ParserEvent: Sendable, Equatable {
    /// A request's head asked for `Expect: 100-continue` and its body has not arrived: the
    /// server may send `100 Continue` (RFC 9110 §10.1.1).
    case continueExpected
    /// A whole request, body included.
    case request(HTTP1Request)
    /// The bytes are not HTTP/1.x; the parser reads nothing more.
    case error(HTTP1ParseError)
}
