import APNSMockCore
import APNSMockStore
import Foundation
import Testing

@testable import APNSMockFuzzTargets

/// Every committed fuzz input (seeds and the regressions of crashes the fuzzers found) replayed
/// through its target in the ordinary build: a crash that comes back fails `swift test`, not
/// only the fuzz build.
@Suite struct FuzzCorpusTests {
    @Test(arguments: FuzzTarget.all.map(\.name))
    func replaysTheCommittedCorpus(target name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        let files = FuzzCorpus.files(under: FuzzCorpus.directory + "/" + name)
        #expect(!files.isEmpty, "no seeds in Tests/FuzzCorpus/\(name)")
        for file in files {
            let data = try #require(FileManager.default.contents(atPath: file))
            #expect(data.count <= target.maximumLength, "\(file) is longer than the target's max_len")
            target.run(Array(data))
        }
    }

    @Test func everyCorpusDirectoryIsATarget() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: FuzzCorpus.directory)
            .filter { !$0.hasPrefix(".") && $0 != "README.md" }
        #expect(Set(names) == Set(FuzzTarget.all.map(\.name)))
    }

    @Test func targetNamesAreUnique() {
        #expect(Set(FuzzTarget.all.map(\.name)).count == FuzzTarget.all.count)
    }
}

/// The fixtures the targets judge against are what they claim to be.
@Suite struct FuzzFixtureTests {
    @Test func theStoreHoldsEveryPushAndAcceptsTheValidOnes() {
        let page = FuzzDeliveries.reader.query(DeliveryQuery(limit: 100))
        #expect(page.deliveries.count == FuzzServer.pushes.count)
        let statuses = page.deliveries.map { $0.response?.status }
        // The device pushes; the broadcast (last) reaches the broadcast rules, accepted or not.
        #expect(statuses.prefix(6) == [200, 200, 410, 400, 200, 200])
    }
}

/// The web-push seeds reach what they are named for: the accepted one passes every check and
/// decrypts (RFC 8291 Appendix A's plaintext), so mutations of it explore the decryption.
@Suite struct WebPushSeedTests {
    static func seed(_ name: String) throws -> [UInt8] {
        let path = FuzzCorpus.directory + "/web-push/" + name
        return Array(try #require(FileManager.default.contents(atPath: path)))
    }

    @Test func theAcceptedSeedIsAcceptedAndDecrypts() throws {
        let (_, verdict) = FuzzTarget.judgeWebPush(try Self.seed("accepted-rfc8291-example"))
        #expect(verdict.status == 201, "\(verdict.detail ?? "")")
        let plaintext = try #require(verdict.plaintext)
        #expect(String(decoding: plaintext, as: UTF8.self) == "When I grow up, I want to be a watermelon")
    }

    @Test(arguments: [
        ("wrong-audience", "BadJwtToken"), ("expires-in-two-days", "BadJwtToken"),
        ("webpush-scheme", "BadAuthorizationHeader"), ("no-ttl", "BadTtl"), ("bad-urgency-long-topic", "BadUrgency"),
        ("aesgcm-encoding", "BadWebPushRequest"),
    ])
    func aRefusedSeedIsRefusedForItsReason(name: String, reason: String) throws {
        let (_, verdict) = FuzzTarget.judgeWebPush(try Self.seed(name))
        #expect(verdict.reason?.rawValue == reason, "\(name): \(verdict.detail ?? "accepted")")
    }
}
