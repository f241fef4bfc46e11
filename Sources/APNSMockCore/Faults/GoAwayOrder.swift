/// Which goes out first when a fault rule's GOAWAY covers the stream that triggered it (the
/// stream's id is at most the GOAWAY's last stream id): that stream's answer (HEADERS, and DATA
/// for an error's body) or the GOAWAY. RFC 9113 §6.8 allows both; clients do not all take both.
///
/// JSON: `"order": "answerFirst"` or `"order": "goAwayFirst"` in a `goaway` action.
public enum GoAwayOrder: String, Sendable, Hashable, CaseIterable {
    /// The answer, then the GOAWAY: what every HTTP/2 client reads. python-hyper's h2 (httpx,
    /// aioapns) closes its connection state on a GOAWAY and takes any later frame, the covered
    /// stream's HEADERS included, as a protocol error; aioapns then sends the push again, and
    /// one push is delivered twice.
    case answerFirst
    /// The GOAWAY, then the answer (allowed, and what the mock did before `order` existed): for
    /// testing a client's handling of frames that follow a GOAWAY.
    case goAwayFirst

    /// What a `goaway` action without `order` does: `answerFirst`, the order every client
    /// handles.
    public static let `default` = GoAwayOrder.answerFirst

    /// The names `order` takes, in the order messages list them.
    public static let names = allCases.map(\.rawValue)
}
