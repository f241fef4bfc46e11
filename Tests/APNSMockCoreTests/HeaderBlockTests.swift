import APNSMockCore
import Testing

@Suite struct HeaderBlockTests {
    static let fields = [
        HTTPHeaderField(name: "apns-topic", value: "com.example.app"),
        HTTPHeaderField(name: "x-custom", value: "one"),
        HTTPHeaderField(name: "authorization", value: "bearer aGVhZA.Y2xhaW1z.c2lnbmF0dXJl"),
        HTTPHeaderField(name: "apns-topic", value: "again"),
        HTTPHeaderField(name: "apns-collapse-id", value: String(repeating: "c", count: 200)),
        HTTPHeaderField(name: "empty", value: ""),
    ]

    @Test func fieldsRoundTripInOrderWithDuplicates() {
        let block = HeaderBlock(Self.fields)
        #expect(block.count == Self.fields.count)
        #expect(block.fields == Self.fields)
        #expect(block.firstValue(named: "apns-topic") == "com.example.app")
        #expect(block.firstValue(named: "x-custom") == "one")
        #expect(block.firstValue(named: "missing") == nil)
    }

    /// Looking a name up by its spelling, by its code, and comparing two fields' names agree
    /// with comparing the names as strings; the unknown `x-custom-2` shares a length and a prefix
    /// with `x-custom`, not its name.
    @Test func lookupsByCodeAndBySpellingAgreeWithTheNames() {
        let fields = Self.fields + [HTTPHeaderField(name: "x-custom-2", value: "two")]
        let block = HeaderBlock(fields)
        for field in fields {
            #expect(block.firstValue(named: field.name) == fields.first { $0.name == field.name }?.value)
        }
        for name in KnownHeaderName.allCases {
            #expect(block.firstValue(name) == fields.first { $0.name == name.spelling.description }?.value)
        }
        #expect(block.firstValue(named: "x-custo") == nil)
        let coded = Array(block)
        for lhs in coded.indices {
            for rhs in coded.indices {
                #expect(block.sameName(coded[lhs], coded[rhs]) == (fields[lhs].name == fields[rhs].name))
            }
        }
    }

    @Test func knownNamesAreCodedAndOthersSpelledOut() {
        let block = HeaderBlock(Self.fields)
        let known = block.map(\.knownName)
        #expect(known == [.apnsTopic, nil, .authorization, .apnsTopic, .apnsCollapseID, nil])
        for name in KnownHeaderName.allCases {
            var spelling = name.name
            #expect(spelling.withUTF8 { KnownHeaderName.matching($0) } == name)
        }
        var almost = "apns-topicx"
        #expect(almost.withUTF8 { KnownHeaderName.matching($0) } == nil)
        var upper = "APNS-TOPIC"
        #expect(upper.withUTF8 { KnownHeaderName.matching($0) } == nil)
    }

    @Test(arguments: [0, 1, 2])
    func encodingStripsEveryTokenSignature(authorizations: Int) throws {
        var fields = [HTTPHeaderField(name: "apns-topic", value: "com.example.app")]
        for index in 0..<authorizations {
            fields.append(HTTPHeaderField(name: "authorization", value: "bearer aGVhZA.Y2xhaW1z.c2ln\(index)"))
            fields.append(HTTPHeaderField(name: "x-after", value: "\(index)"))
        }
        fields.append(HTTPHeaderField(name: "authorization", value: "not-a-jwt"))
        let block = HeaderBlock(fields)
        var encoded: [UInt8] = []
        block.encode(into: &encoded, strippingTokenSignatures: true)
        let decoded = try #require(HeaderBlock(encoded: encoded[...], count: block.count))
        let expected = fields.map { field in
            field.name == "authorization" && field.value.hasPrefix("bearer ")
                ? HTTPHeaderField(name: field.name, value: "bearer aGVhZA.Y2xhaW1z") : field
        }
        #expect(decoded.fields == expected)
        var unstripped: [UInt8] = []
        block.encode(into: &unstripped, strippingTokenSignatures: false)
        #expect(unstripped == block.bytes)
    }

    @Test func malformedEncodingsAreRefused() {
        let block = HeaderBlock(Self.fields)
        #expect(HeaderBlock(encoded: block.bytes[...], count: block.count + 1) == nil)
        #expect(HeaderBlock(encoded: block.bytes.dropLast(), count: block.count) == nil)
        #expect(HeaderBlock(encoded: [200, 1, 65][...], count: 1) == nil)  // unknown name code
        #expect(HeaderBlock(encoded: [0, 0xFF, 0xFF, 0xFF][...], count: 1) == nil)  // length past the end
    }
}
