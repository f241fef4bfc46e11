#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a file (or a directory) named by a flag or a setting cannot be read, in the words a
/// shell uses after the path: `no such file or directory`, `permission denied`, `is a directory`.
public struct FileProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem; problems are equal when their codes and texts are.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Backing: String, Sendable, Hashable {
            case notFound, permissionDenied, isADirectory, notADirectory, notText, other
        }
        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        /// Nothing is at the path (or a step of it is not a directory).
        public static let notFound = Code(.notFound)
        /// The file, or a directory on its path, may not be read by this process.
        public static let permissionDenied = Code(.permissionDenied)
        /// A file was expected and the path names a directory.
        public static let isADirectory = Code(.isADirectory)
        /// A directory was expected and the path names something else.
        public static let notADirectory = Code(.notADirectory)
        /// The file is not UTF-8 text.
        public static let notText = Code(.notText)
        /// Another system error, in `description`.
        public static let other = Code(.other)

        public var description: String { backing.rawValue }
    }

    public let code: Code
    /// `no such file or directory`, `permission denied`, `is a directory`, …
    public let description: String

    private init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    /// What a path should name.
    public enum Kind: Sendable {
        case file, directory
    }

    /// Why `path` cannot be read as a `kind`, or `nil` when it can be.
    public static func check(_ path: String, expecting kind: Kind = .file) -> FileProblem? {
        var info = stat()
        guard stat(path, &info) == 0 else { return fromErrno(errno) }
        let isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
        switch kind {
        case .file where isDirectory: return FileProblem(.isADirectory, "is a directory, not a file")
        case .directory where !isDirectory: return FileProblem(.notADirectory, "is not a directory")
        default: break
        }
        // A directory is read by listing it: it needs search permission too.
        guard access(path, R_OK | (isDirectory ? X_OK : 0)) == 0 else { return fromErrno(errno) }
        return nil
    }

    /// Whether `path` names a directory; `nil` when nothing can be found there.
    public static func isDirectory(_ path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The UTF-8 text of the file at `path`.
    /// - Throws: `FileProblem` saying why it cannot be read.
    public static func readText(_ path: String) throws(FileProblem) -> String {
        if let problem = check(path) { throw problem }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw check(path) ?? FileProblem(.other, "cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw FileProblem(.notText, "is not UTF-8 text") }
        return text
    }

    private static func fromErrno(_ number: Int32) -> FileProblem {
        switch number {
        case ENOENT, ENOTDIR: FileProblem(.notFound, "no such file or directory")
        case EACCES, EPERM: FileProblem(.permissionDenied, "permission denied")
        case EISDIR: FileProblem(.isADirectory, "is a directory, not a file")
        default: FileProblem(.other, "cannot be read: \(String(cString: strerror(number)).lowercased())")
        }
    }
}
