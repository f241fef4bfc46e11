import APNSMockCore
import APNSMockStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension DeliveryJournal {
    /// A journal that cannot be restored: the file, the line, and what is wrong, in words.
    public struct RestoreError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// What a journal file held.
    public struct Contents: Sendable {
        /// The records, in the file's order (a record answered late comes after later ones).
        public var records: [DeliveryRecord]
        /// The last line had no newline and was no record: the mock was killed while writing it.
        public var cutOffLastLine: Bool
    }

    /// Reads the records of the journal at `path` (or of any JSON Lines file of records as the
    /// admin API shows them). Blank lines are skipped; so is a last line cut off mid-write.
    /// - Throws: `RestoreError` for a file that cannot be read or a line that is not a record.
    public static func read(path: String) throws -> Contents {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw RestoreError(
                description:
                    "cannot read the journal '\(path)': \(FileProblem.check(path)?.description ?? "\(error)")"
            )
        }
        let bytes = [UInt8](data)
        var contents = Contents(records: [], cutOffLastLine: false)
        var start = 0
        var number = 0
        while start < bytes.count {
            number += 1
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let line = bytes[start..<end]
            let terminated = end < bytes.count
            start = end + 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            guard let value = JSONValue.parse(line) else {
                if !terminated {
                    contents.cutOffLastLine = true
                    break
                }
                throw RestoreError(description: "\(path) line \(number): not JSON")
            }
            do {
                contents.records.append(try DeliveryRecordJSON.decode(value))
            } catch {
                throw RestoreError(description: "\(path) line \(number): not a record: \(error)")
            }
        }
        return contents
    }
}
