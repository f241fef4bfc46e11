import Foundation
import Testing

@testable import APNSMockRegistry

#if canImport(Glibc)
    import Glibc
#endif

/// Why a file cannot be read, in a shell's words.
@Suite struct FileProblemTests {
    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("file-problem-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func missingDirectoryAndReadable() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/a.yaml"
        try "host: x\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(FileProblem.check(file) == nil)
        #expect(try FileProblem.readText(file) == "host: x\n")
        #expect(FileProblem.check(directory + "/missing.yaml")?.code == .notFound)
        #expect(FileProblem.check(directory + "/missing.yaml")?.description == "no such file or directory")
        #expect(FileProblem.check(file + "/below")?.code == .notFound)
        #expect(FileProblem.check(directory)?.description == "is a directory, not a file")
        #expect(FileProblem.check(directory, expecting: .directory) == nil)
        #expect(FileProblem.check(file, expecting: .directory)?.description == "is not a directory")
        let error = #expect(throws: FileProblem.self) { try FileProblem.readText(directory) }
        #expect(error?.code == .isADirectory)
        let binary = directory + "/b.bin"
        FileManager.default.createFile(atPath: binary, contents: Data([0xFF, 0xFE, 0x00]))
        #expect((#expect(throws: FileProblem.self) { try FileProblem.readText(binary) })?.code == .notText)
    }

    /// Root reads every file, whatever its mode: only an unprivileged run can see the refusal.
    @Test(.enabled(if: getuid() != 0, "root may read any file")) func permissionDenied() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/secret.yaml"
        try "x: 1\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o000)
        #expect(FileProblem.check(file)?.description == "permission denied")
    }
}
