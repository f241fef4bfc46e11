import APNSMockStore
import APNSMockTransport
import Foundation

/// The committed corpora (`Tests/FuzzCorpus/<target>/`, regressions in `regressions/` below
/// each), and the server-session seeds, which are frames an nghttp2 client sends.
public enum FuzzCorpus {
    /// `Tests/FuzzCorpus` of this package.
    public static let directory = FuzzFixtures.packageRoot + "/Tests/FuzzCorpus"

    /// The files under `path` (itself when it is a file), recursively, sorted; dot files and
    /// `README.md` are not inputs.
    public static func files(under path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [path] }
        let names = (FileManager.default.subpaths(atPath: path) ?? []).sorted()
        return names.compactMap { name in
            let last = (name as NSString).lastPathComponent
            guard !last.hasPrefix("."), last != "README.md" else { return nil }
            let full = path + "/" + name
            var isSubdirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: full, isDirectory: &isSubdirectory)
            return isSubdirectory.boolValue ? nil : full
        }
    }

    /// Writes the server-session seeds into `directory`: every push at once, the same in
    /// 7-byte chunks, and each push alone. Returns the paths written.
    public static func writeSessionSeeds(to directory: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var seeds: [(String, [UInt8])] = []
        let all = clientBytes(FuzzServer.pushes)
        seeds.append(("all-pushes", [0] + all))
        seeds.append(("all-pushes-chunked", [7] + all))
        for (index, push) in FuzzServer.pushes.enumerated() {
            seeds.append(("push-\(index)", [0] + clientBytes([push])))
        }
        var written: [String] = []
        for (name, bytes) in seeds {
            let path = directory + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            written.append(path)
        }
        return written
    }

    /// What a client sends (after its preface) to get `pushes` answered by a fresh connection.
    private static func clientBytes(_ pushes: [FuzzServer.Push]) -> [UInt8] {
        guard
            let connection = try? InMemoryAPNSConnection(
                context: FuzzServer.makeContext(store: DeliveryStore(capacity: 16)))
        else { return [] }
        return FuzzServer.exchange(pushes, with: connection)
    }
}
