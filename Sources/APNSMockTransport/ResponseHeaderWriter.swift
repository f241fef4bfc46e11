import APNSMockCore
import APNSMockRegistry
import APNSMockStore

/// Writes a response's header fields for one `nghttp2_submit_response`, reused for every
/// response. Names are static strings, and so are the usual values (`:status 200`, the content
/// type): libnghttp2 points at them instead of copying them (`NGHTTP2_NV_FLAG_NO_COPY_NAME`,
/// `NO_COPY_VALUE`). Only values made per response (ids, an unusual status) are written into
/// one buffer, which libnghttp2 copies while submitting.
struct ResponseHeaderWriter {
    /// The bytes of the values that are not static.
    private(set) var bytes: [UInt8] = []
    private(set) var fields: [Field] = []

    /// One header field.
    struct Field {
        var name: StaticString
        /// The value when static; else it is `bytes[valueRange]`.
        var staticValue: StaticString?
        var valueRange: Range<Int>
        /// Whether HPACK must never index it (a value that changes with every response).
        var neverIndexed: Bool
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        fields.removeAll(keepingCapacity: true)
    }

    mutating func add(_ name: StaticString, _ value: StaticString) {
        fields.append(Field(name: name, staticValue: value, valueRange: 0..<0, neverIndexed: false))
    }

    mutating func add(_ name: StaticString, string value: String, neverIndexed: Bool = false) {
        var value = value
        value.withUTF8 { add(name, $0, neverIndexed: neverIndexed) }
    }

    mutating func add(_ name: StaticString, _ value: UnsafeBufferPointer<UInt8>, neverIndexed: Bool = false) {
        let start = bytes.count
        bytes.append(contentsOf: value)
        fields.append(Field(name: name, staticValue: nil, valueRange: start..<bytes.count, neverIndexed: neverIndexed))
    }

    mutating func add(_ name: StaticString, _ value: ResponseMessageID, neverIndexed: Bool = false) {
        value.withUTF8 { add(name, $0, neverIndexed: neverIndexed) }
    }

    /// A status code: the statuses APNs answers with are static text.
    mutating func add(_ name: StaticString, _ value: Int) {
        if let text = Self.statusText(value) {
            add(name, text)
        } else {
            add(name, string: String(value))
        }
    }

    private static func statusText(_ status: Int) -> StaticString? {
        switch status {
        case 200: "200"
        case 201: "201"
        case 204: "204"
        case 400: "400"
        case 403: "403"
        case 404: "404"
        case 405: "405"
        case 410: "410"
        case 413: "413"
        case 429: "429"
        case 500: "500"
        case 503: "503"
        default: nil
        }
    }
}
