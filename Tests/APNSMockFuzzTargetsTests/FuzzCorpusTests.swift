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
