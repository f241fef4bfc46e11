#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes bytes to a file descriptor in full: what the commands print on standard output and
/// standard error, and the files the server saves.
public enum DescriptorOutput {
    /// Writes all of `bytes` to `descriptor`, retrying short writes and interruptions.
    /// - Returns: `nil` when everything was written, else the system's reason
    ///   (`No space left on device`).
    @discardableResult
    public static func write(_ bytes: [UInt8], to descriptor: Int32) -> String? {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                written += count
            } else if count < 0, errno != EINTR {
                return String(cString: strerror(errno))
            }
        }
        return nil
    }

    /// Writes `text` as UTF-8 to standard output.
    public static func standardOutput(_ text: String) { write(Array(text.utf8), to: STDOUT_FILENO) }

    /// Writes `bytes` to standard output.
    public static func standardOutput(_ bytes: [UInt8]) { write(bytes, to: STDOUT_FILENO) }

    /// Writes `text` as UTF-8 to standard error.
    public static func standardError(_ text: String) { write(Array(text.utf8), to: STDERR_FILENO) }
}
