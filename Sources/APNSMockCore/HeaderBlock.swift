/// A request's regular headers in one byte buffer, in the order received, duplicates kept.
///
/// Each field is a name code (`KnownHeaderName.rawValue`, or 0 followed by the name's length
/// and bytes), then the value's length and bytes; lengths are LEB128 varints. One buffer per
/// request instead of two `String`s per header: the transport appends the bytes nghttp2 hands
/// it, the rules read the values they need, and the store keeps the buffer as it is.
public struct HeaderBlock: Sendable, Hashable, Sequence {
    /// The encoded fields.
    public private(set) var bytes: [UInt8] = []
    /// Number of fields.
    public private(set) var count = 0
    /// Where the first `authorization` value sits, and how many there are: the store strips
    /// the signature without walking the block when there is one.
    private var firstAuthorizationValue: Range<Int>?
    private var authorizationCount = 0

    /// One field: its known name (if any) and where its name and value sit in `bytes`.
    public struct Field: Sendable {
        public var knownName: KnownHeaderName?
        /// The name's bytes; empty for a known name (see `knownName`).
        public var nameRange: Range<Int>
        public var valueRange: Range<Int>
    }

    public init() {}

    /// The block of `fields`, in order.
    public init(_ fields: [HTTPHeaderField]) {
        for field in fields { append(name: field.name, value: field.value) }
    }

    /// Reads a block written by `encode(into:strippingTokenSignatures:)`; `nil` when `encoded`
    /// is not one.
    public init?(encoded: ArraySlice<UInt8>, count: Int) {
        bytes = Array(encoded)
        self.count = count
        var seen = 0
        var iterator = makeIterator()
        while let field = iterator.next() {
            seen += 1
            if field.knownName == .authorization {
                authorizationCount += 1
                if authorizationCount == 1 { firstAuthorizationValue = field.valueRange }
            }
        }
        guard seen == count, iterator.offset == bytes.count else { return nil }
    }

    /// Appends a field from raw bytes (the name lower case, as HTTP/2 requires).
    public mutating func append(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        let known = KnownHeaderName.matching(name)
        if let known {
            bytes.append(known.rawValue)
        } else {
            bytes.append(0)
            Self.appendVarint(name.count, to: &bytes)
            bytes.append(contentsOf: name)
        }
        Self.appendVarint(value.count, to: &bytes)
        if known == .authorization {
            authorizationCount += 1
            if authorizationCount == 1 { firstAuthorizationValue = bytes.count..<(bytes.count + value.count) }
        }
        bytes.append(contentsOf: value)
        count += 1
    }

    /// Appends a field.
    public mutating func append(name: String, value: String) {
        var name = name
        var value = value
        name.withUTF8 { nameBytes in value.withUTF8 { append(name: nameBytes, value: $0) } }
    }

    /// Empties the block, keeping its buffer for reuse.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        count = 0
        firstAuthorizationValue = nil
        authorizationCount = 0
    }

    /// The fields as strings.
    public var fields: [HTTPHeaderField] {
        var result: [HTTPHeaderField] = []
        result.reserveCapacity(count)
        for field in self { result.append(HTTPHeaderField(name: name(of: field), value: string(field.valueRange))) }
        return result
    }

    /// The first value of header `name` (lower case), if present.
    public func firstValue(named name: String) -> String? {
        var name = name
        return name.withUTF8 { name in
            if let known = KnownHeaderName.matching(name) { return firstValue(known) }
            // A name that is not a known one is stored as its bytes (a known one never is).
            for field in self where field.knownName == nil {
                if withBytes(field.nameRange, { ASCIIBytes.equal($0, name) }) { return string(field.valueRange) }
            }
            return nil
        }
    }

    /// The first value of the known header `name`, if present: fields compared by their code.
    public func firstValue(_ name: KnownHeaderName) -> String? {
        for field in self where field.knownName == name { return string(field.valueRange) }
        return nil
    }

    /// Whether two fields of this block have the same name (compared by code, or by bytes for
    /// names that are not known ones), without making either name a string.
    public func sameName(_ lhs: Field, _ rhs: Field) -> Bool {
        guard lhs.knownName == nil, rhs.knownName == nil else { return lhs.knownName == rhs.knownName }
        return withBytes(lhs.nameRange) { lhsName in withBytes(rhs.nameRange) { ASCIIBytes.equal(lhsName, $0) } }
    }

    /// The name of `field`.
    public func name(of field: Field) -> String { field.knownName?.name ?? string(field.nameRange) }

    /// The bytes at `range` as a string.
    public func string(_ range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// Calls `body` with the bytes at `range`.
    public func withBytes<Result>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Appends the encoded fields to `output`; with `strippingTokenSignatures`, an
    /// `authorization` value keeps everything before its last `.` when it has two (a JWT
    /// without its signature), and what follows the signature (a VAPID header's `, k=<key>`), as
    /// the record stores it.
    public func encode(into output: inout [UInt8], strippingTokenSignatures: Bool) {
        guard strippingTokenSignatures, authorizationCount > 0 else {
            output.append(contentsOf: bytes)
            return
        }
        var copied = 0
        bytes.withUnsafeBufferPointer { all in
            func strip(_ valueRange: Range<Int>) {
                let value = UnsafeBufferPointer(rebasing: all[valueRange])
                guard let cut = JWTSummary.signatureCut(value) else { return }
                // The signature ends at the first `,` after it (a VAPID header goes on with
                // `, k=<key>`), else at the value's end (memchr: this runs for every push with a
                // provider token).
                let rest = UnsafeBufferPointer(rebasing: value[cut...])
                let resume = ASCIIBytes.firstIndex(of: UInt8(ascii: ","), in: rest).map { cut + $0 } ?? value.count
                // Everything up to this field's value length, then the shortened value.
                output.append(contentsOf: all[copied..<(valueRange.lowerBound - Self.varintSize(value.count))])
                Self.appendVarint(cut + value.count - resume, to: &output)
                output.append(contentsOf: value[0..<cut])
                // Only a VAPID header goes on after its signature: an APNs token's append of
                // nothing is skipped (about 65 instructions a push).
                if resume < value.count { output.append(contentsOf: value[resume...]) }
                copied = valueRange.upperBound
            }
            if authorizationCount == 1, let only = firstAuthorizationValue {
                strip(only)
            } else {
                for field in self where field.knownName == .authorization { strip(field.valueRange) }
            }
            output.append(contentsOf: all[copied...])
        }
    }

    public func makeIterator() -> Iterator { Iterator(bytes: bytes) }

    /// Walks the fields in order.
    public struct Iterator: IteratorProtocol {
        let bytes: [UInt8]
        var offset = 0

        public mutating func next() -> Field? {
            guard offset < bytes.count else { return nil }
            let code = bytes[offset]
            offset += 1
            var nameRange = offset..<offset
            let knownName: KnownHeaderName?
            if code == 0 {
                guard let range = readRange() else { return nil }
                nameRange = range
                knownName = nil
            } else {
                guard let known = KnownHeaderName(rawValue: code) else { return nil }
                knownName = known
            }
            guard let valueRange = readRange() else { return nil }
            return Field(knownName: knownName, nameRange: nameRange, valueRange: valueRange)
        }

        private mutating func readRange() -> Range<Int>? {
            var length = 0
            var shift = 0
            while true {
                guard offset < bytes.count, shift < 63 else { return nil }
                let byte = bytes[offset]
                offset += 1
                length |= Int(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            guard length <= bytes.count - offset else { return nil }
            defer { offset += length }
            return offset..<(offset + length)
        }
    }

    static func appendVarint(_ value: Int, to bytes: inout [UInt8]) {
        var remaining = UInt(value)
        while remaining >= 0x80 {
            bytes.append(UInt8(remaining & 0x7F) | 0x80)
            remaining >>= 7
        }
        bytes.append(UInt8(remaining))
    }

    static func varintSize(_ value: Int) -> Int {
        var size = 1
        var remaining = UInt(value) >> 7
        while remaining > 0 {
            size += 1
            remaining >>= 7
        }
        return size
    }
}

extension HeaderBlock: Equatable {
    public static func == (lhs: HeaderBlock, rhs: HeaderBlock) -> Bool { lhs.bytes == rhs.bytes }
}
extension HeaderBlock {
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
}
