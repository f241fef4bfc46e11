/// A request as the APNs rules see it: plain values, no transport types.
public struct APNSRequest: Sendable, Equatable {
    /// `:method`.
    public var method: String
    /// `:path`, including any query.
    public var path: String
    /// `:authority`, or `host` when `:authority` is missing.
    public var authority: String?
    /// Regular (non-pseudo) headers in the order received, duplicates kept.
    public var headerBlock: HeaderBlock
    /// The payload bytes kept: the first `APNSPushType.largestPayloadLimit` bytes at most.
    public var payload: [UInt8]
    /// The number of payload bytes received in all (may exceed `payload.count`).
    public var payloadSize: Int
    /// Whether the whole body had arrived (END_STREAM) when the request was judged; `false` for
    /// a body so large that it is answered before its end, so `payloadSize` is a lower bound.
    public var payloadComplete = true
    /// Set when the header list exceeded the connection's `SETTINGS_MAX_HEADER_LIST_SIZE`;
    /// headers past the limit were not kept.
    public var headerListTooLarge: Bool

    public init(
        method: String, path: String, authority: String? = nil, headers: [HTTPHeaderField] = [],
        payload: [UInt8] = [], payloadSize: Int? = nil, headerListTooLarge: Bool = false
    ) {
        self.method = method
        self.path = path
        self.authority = authority
        self.headerBlock = HeaderBlock(headers)
        self.payload = payload
        self.payloadSize = payloadSize ?? payload.count
        self.headerListTooLarge = headerListTooLarge
    }

    /// The request as the transport collected it: headers already in a `HeaderBlock`.
    public init(
        method: String, path: String, authority: String?, headerBlock: HeaderBlock, payload: [UInt8],
        payloadSize: Int, headerListTooLarge: Bool
    ) {
        self.method = method
        self.path = path
        self.authority = authority
        self.headerBlock = headerBlock
        self.payload = payload
        self.payloadSize = payloadSize
        self.headerListTooLarge = headerListTooLarge
    }

    /// Regular (non-pseudo) headers as strings, in the order received, duplicates kept.
    public var headers: [HTTPHeaderField] {
        get { headerBlock.fields }
        set { headerBlock = HeaderBlock(newValue) }
    }

    /// The first value of header `name` (lower case), if present.
    public func header(_ name: String) -> String? { headerBlock.firstValue(named: name) }
}
