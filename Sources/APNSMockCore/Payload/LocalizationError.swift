/// A localization file that could not be read: which file, which line (when known), and why.
public struct LocalizationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's name as the caller gave it (`fr.lproj/Localizable.strings`).
    public var fileName: String
    /// The 1-based line of the problem; `nil` when it concerns the whole file.
    public var line: Int?
    /// What is wrong, without the file name (`expected ';' after the value`).
    public var message: String

    public init(fileName: String, line: Int?, message: String) {
        self.fileName = fileName
        self.line = line
        self.message = message
    }

    /// `fr.lproj/Localizable.strings line 3: expected ';' after the value`.
    public var description: String {
        if let line { return "\(fileName) line \(line): \(message)" }
        return "\(fileName): \(message)"
    }
}
