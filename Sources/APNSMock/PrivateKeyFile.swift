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

/// Writes files that hold a private key, readable and writable by their owner only.
///
/// The file is created with mode 0600 (a new file beside the target, then renamed over it), so
/// the key is never readable by others, not even between creating and filling the file, and
/// replacing an existing world-readable file leaves a 0600 one. A umask can only narrow the mode.
public enum PrivateKeyFile {
    /// The mode a written file is created with: owner read and write, nothing for group and others.
    public static let permissions: mode_t = 0o600

    /// A file that could not be written: the path and the system's reason.
    public struct WriteError: Error, CustomStringConvertible, Sendable {
        /// `cannot create '/dir/.key.pem.…': Permission denied`.
        public let description: String
    }

    /// Writes `text` as UTF-8 to `path`, replacing any file there, with mode ``permissions``.
    /// - Throws: ``WriteError``; no partial file is left at `path` or beside it.
    public static func save(_ text: String, atPath path: String) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw failure("cannot create '\(temporary)'") }
        var problem = DescriptorOutput.write(Array(text.utf8), to: descriptor)
        if problem == nil, fsync(descriptor) != 0 { problem = String(cString: strerror(errno)) }
        if close(descriptor) != 0, problem == nil { problem = String(cString: strerror(errno)) }
        if let problem {
            unlink(temporary)
            throw WriteError(description: "cannot write '\(temporary)': \(problem)")
        }
        guard rename(temporary, path) == 0 else {
            let error = failure("cannot rename '\(temporary)' to '\(path)'")
            unlink(temporary)
            throw error
        }
    }

    /// `what` and the reason `errno` gives.
    private static func failure(_ what: String) -> WriteError {
        WriteError(description: "\(what): \(String(cString: strerror(errno)))")
    }
}
