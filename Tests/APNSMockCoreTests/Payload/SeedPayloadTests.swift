import APNSMockCore
import Foundation
import Testing

/// Every example payload of the seed documents (`/work/shared/seeds/*.txt`), read from
/// `Tests/Fixtures/SeedPayloads.json` (which the end-to-end suite pushes through a real client),
/// with the findings and the preview the analyzer must give for it.
@Suite("Seed payloads")
struct SeedPayloadTests {
    /// One row of the fixture file, or the reason the file could not be read.
    struct Fixture: Sendable, CustomTestStringConvertible {
        var source: String
        var payload = ""
        var headers: [String: String] = [:]
        var localized = false
        var codes: [String] = []
        var preview: JSONValue = .null
        var loadError: String?
        var testDescription: String { source }
    }

    static let fixtureFile = repositoryTests + "/Fixtures/SeedPayloads.json"
    static let localizations = repositoryTests + "/Fixtures/Localizations"
    static let repositoryTests: String = {
        var path = #filePath.split(separator: "/").map(String.init)
        path.removeLast(3)
        return "/" + path.joined(separator: "/")
    }()

    static let fixtures: [Fixture] = {
        do { return try loadFixtures() } catch { return [Fixture(source: "the fixture file", loadError: "\(error)")] }
    }()

    struct FixtureFileError: Error, CustomStringConvertible {
        var description: String
    }

    static func loadFixtures() throws -> [Fixture] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixtureFile)))
        guard case .object(let top)? = JSONValue.parse(bytes),
            case .array(let rows)? = top.first(where: { $0.key == "fixtures" })?.value
        else { throw FixtureFileError(description: "\(fixtureFile) has no fixtures array") }
        return try rows.map { row in
            guard case .object(let members) = row else { throw FixtureFileError(description: "a row is not an object") }
            func member(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
            guard case .string(let source)? = member("source"), case .string(let payload)? = member("payload"),
                case .array(let lint)? = member("lint"), let preview = member("preview")
            else {
                throw FixtureFileError(description: "a row lacks source, payload, lint or preview: \(row.jsonText)")
            }
            var fixture = Fixture(source: source, payload: payload, preview: preview)
            fixture.codes = lint.compactMap(\.scalarText)
            if case .object(let headers)? = member("headers") {
                for header in headers { fixture.headers[header.key] = header.value.scalarText }
            }
            fixture.localized = member("localized") == .bool(true)
            return fixture
        }
    }

    /// The English table of `Tests/Fixtures/Localizations/en.lproj`, as a device set to `en` has it.
    static func englishStrings() throws -> LocalizedStrings? {
        let file = localizations + "/en.lproj/Localizable.strings"
        var catalog = LocalizationCatalog()
        try catalog.addStringsFile(
            [UInt8](Data(contentsOf: URL(fileURLWithPath: file))), locale: "en", fileName: "Localizable.strings")
        return catalog.strings(for: "en")
    }

    /// What the server derives from the fixture's headers (topic `com.example.app` by default).
    static func context(_ fixture: Fixture) throws -> PayloadContext {
        let header = fixture.headers["apns-push-type"]
        let pushType: APNSPushType? = if let header { APNSPushType(rawValue: header) } else { .alert }
        return PayloadContext(
            pushType: pushType, pushTypeHeaderPresent: header != nil,
            priority: fixture.headers["apns-priority"], topic: fixture.headers["apns-topic"] ?? "com.example.app",
            strings: fixture.localized ? try englishStrings() : nil)
    }

    /// A JSON value with the members of every object sorted by key, to compare regardless of order.
    static func sorted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members): .object(members.map { ($0.key, sorted($0.value)) }.sorted { $0.key < $1.key })
        case .array(let elements): .array(elements.map(sorted))
        default: value
        }
    }

    @Test("The fixture file lists every seed example")
    func fileIsComplete() {
        #expect(Self.fixtures.allSatisfy { $0.loadError == nil }, "\(Self.fixtures.compactMap(\.loadError))")
        #expect(Self.fixtures.count >= 34)
        for prefix in ["000", "002", "003", "004"] {
            #expect(Self.fixtures.contains { $0.source.hasPrefix(prefix) }, "no fixture from seed \(prefix)")
        }
    }

    @Test("Findings and preview", arguments: fixtures)
    func fixture(_ fixture: Fixture) throws {
        #expect(fixture.loadError == nil)
        let bytes = Array(fixture.payload.utf8)
        let analysis = PayloadAnalyzer.analyze(
            payload: bytes, payloadSize: bytes.count, context: try Self.context(fixture))
        #expect(analysis.findings.map(\.code.rawValue) == fixture.codes, "\(analysis.findings)")
        #expect(Self.sorted(analysis.preview?.jsonValue ?? .null) == Self.sorted(fixture.preview))
        #expect(analysis.byteCount == bytes.count)
        let limit = fixture.headers["apns-push-type"] == "voip" ? 5120 : 4096
        #expect(analysis.limit == limit)
        #expect(analysis.bytesRemaining == limit - bytes.count)
    }

    @Test("Seed 003's compact push is 32 bytes")
    func compactSize() {
        let analysis = PayloadTestSupport.analyze(#"{"aps":{"alert":"Hello there!"}}"#)
        #expect(analysis.byteCount == 32)
        #expect(analysis.bytesRemaining == 4064)
    }

    @Test("Seed 004's 256-byte limit of the first binary interface, as a --payload-limit override")
    func legacyLimit() {
        let context = PayloadContext(payloadLimit: 256)
        let near = PayloadTestSupport.analyze(PayloadTestSupport.payload(bytes: 250), context)
        #expect(near.findings.map(\.code) == [.payloadNearLimit])
        #expect(near.bytesRemaining == 6)
        let over = PayloadTestSupport.analyze(PayloadTestSupport.payload(bytes: 300), context)
        #expect(over.findings.map(\.code) == [.payloadTooLarge])
        #expect(over.bytesRemaining == -44)
        #expect(over.preview?.body == String(repeating: "x", count: 280))
    }
}
