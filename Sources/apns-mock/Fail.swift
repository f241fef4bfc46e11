import Foundation

/// Writes `message` to standard error and exits with `code`: a command's failure, one line.
func fail(_ code: Int32, _ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    Foundation.exit(code)
}
