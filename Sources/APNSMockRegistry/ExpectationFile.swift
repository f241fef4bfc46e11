import APNSMockCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An expectation file (`expectations/*.yaml`): `setup:` (keys and devices, the schema of
/// `--config`'s `setup:`) applied by `serve --expectations` and again by `POST /v1/reset`, and
/// `expect:`, the list `apns-mock verify` checks.
public struct ExpectationFile: Sendable {
    /// The path it was read from.
    public var path: String
    public var setup: SetupSection
    public var expectations: [DeliveryExpectation]

    /// The top-level fields.
    public static let fields = ["setup", "expect"]

    /// Reads every expectation file named: a file, or a directory's `*.yaml` and `*.yml` files
    /// (sorted by name, not recursive).
    /// - Throws: `ExpectationFileError` naming the file, the line and the key path.
    public static func load(_ paths: [String], now: Int64) throws(ExpectationFileError) -> [ExpectationFile] {
        var files: [String] = []
        for path in paths {
            guard let isDirectory = FileProblem.isDirectory(path) else {
                throw ExpectationFileError(
                    file: path, line: nil, message: FileProblem.check(path)?.description ?? "no such file or directory")
            }
            if isDirectory {
                if let problem = FileProblem.check(path, expecting: .directory) {
                    throw ExpectationFileError(file: path, line: nil, message: problem.description)
                }
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                let yaml = names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
                guard !yaml.isEmpty else {
                    throw ExpectationFileError(file: path, line: nil, message: "holds no .yaml or .yml file")
                }
                files += yaml.map { URL(fileURLWithPath: path).appendingPathComponent($0).path }
            } else {
                files.append(path)
            }
        }
        var result: [ExpectationFile] = []
        for file in files { result.append(try load(file: file, now: now)) }
        return result
    }

    /// Reads one file.
    public static func load(file: String, now: Int64) throws(ExpectationFileError) -> ExpectationFile {
        let text: String
        do {
            text = try FileProblem.readText(file)
        } catch {
            throw ExpectationFileError(file: file, line: nil, message: error.description)
        }
        let directory = URL(fileURLWithPath: file).deletingLastPathComponent().path
        return try parse(yaml: text, file: file, baseDirectory: directory, now: now)
    }

    /// Reads YAML `text`; `file` names it in errors.
    public static func parse(yaml text: String, file: String, baseDirectory: String, now: Int64)
        throws(ExpectationFileError) -> ExpectationFile
    {
        var lines: [String: Int] = [:]
        let root: SpecValue
        do {
            root = try SpecValue.parse(yaml: text, lines: &lines)
        } catch {
            throw ExpectationFileError(file: file, line: nil, message: error.description)
        }
        func fail(_ path: String, _ message: String) -> ExpectationFileError {
            ExpectationFileError(file: file, line: line(of: path, in: lines, message: message), message: message)
        }
        guard case .object(let fields) = root else {
            throw fail("", "must be a YAML mapping with setup: and expect:; got \(root.kindDescription)")
        }
        for field in fields where !fields.isEmpty && !Self.fields.contains(field.key) {
            throw fail(
                field.key,
                "\(field.key) is not a field of an expectation file\(NameSuggestion.didYouMean(field.key, among: Self.fields)); known: setup, expect"
            )
        }
        var setup = SetupSection()
        if let value = fields.first(where: { $0.key == "setup" })?.value {
            do {
                setup = try SetupSection.decode(
                    SpecObject(value, path: "setup"), baseDirectory: baseDirectory, now: now)
            } catch {
                throw fail(error.path, error.description)
            }
        }
        var expectations: [DeliveryExpectation] = []
        if let value = fields.first(where: { $0.key == "expect" })?.value {
            do {
                expectations = try DeliveryExpectation.list(value.json(textKeys: SpecValue.tokenKeys))
            } catch {
                throw fail("", error.message)
            }
        }
        return ExpectationFile(path: file, setup: setup, expectations: expectations)
    }

    /// The line of the longest key path the message names (messages start with, or quote,
    /// the path of the offending field).
    private static func line(of path: String, in lines: [String: Int], message: String) -> Int? {
        if !path.isEmpty, let line = lines[path] { return line }
        let named = lines.keys.filter { !$0.isEmpty && message.contains($0) }.max { $0.count < $1.count }
        return named.flatMap { lines[$0] }
    }
}
