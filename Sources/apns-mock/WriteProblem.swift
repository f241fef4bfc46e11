#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Why a file could not be written, in the words a shell uses (`permission denied`), from the
/// error `String.write(toFile:)` throws. (Foundation's `localizedDescription` would do it too,
/// but it lives in swift-corelibs-foundation, which links ICU's 34 MB of data into the binary.)
enum WriteProblem {
    static func describe(_ error: any Error) -> String {
        guard let cocoa = error as? CocoaError else { return "\(error)" }
        switch cocoa.code {
        case .fileWriteNoPermission: return "permission denied"
        case .fileNoSuchFile, .fileWriteInvalidFileName: return "no such file or directory"
        case .fileWriteOutOfSpace: return "no space left on device"
        case .fileWriteVolumeReadOnly: return "read-only file system"
        case .fileWriteFileExists: return "a file is in the way"
        default: return "error \(cocoa.code.rawValue)"
        }
    }
}
