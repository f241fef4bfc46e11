import APNSMockCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An expectation file that cannot be used: the file, the line when known, and what is wrong.
public struct ExpectationFileError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `expectations/welcome.yaml:7: expect[0].count.exactly must be a whole number, 0 or more`.
    public var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): \(message)" }
}
