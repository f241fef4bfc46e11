/// A field of a JSON body or YAML file that cannot be used: where it is, and what is wrong.
///
/// `path` is the field's key path from the document's root (`setup.keys[0].environment`;
/// empty for the document itself); `problem` completes the sentence
/// (`must be sandbox, production or both; got 'prod'`).
public struct SpecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key path of the offending field; empty for the whole document.
    public var path: String
    /// What is wrong, phrased to follow the path.
    public var problem: String

    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    /// `setup.keys[0].environment must be sandbox, production or both; got 'prod'`.
    public var description: String { path.isEmpty ? problem : "\(path) \(problem)" }

    /// The same error for a document nested at `prefix` (`setup` + `keys[0]` → `setup.keys[0]`).
    public func nested(under prefix: String) -> SpecError {
        guard !prefix.isEmpty else { return self }
        guard !path.isEmpty else { return SpecError(path: prefix, problem: problem) }
        return SpecError(path: path.hasPrefix("[") ? prefix + path : prefix + "." + path, problem: problem)
    }

    /// `path.key`, or `key` at the root.
    static func join(_ path: String, key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// `path[index]`.
    static func join(_ path: String, index: Int) -> String { "\(path)[\(index)]" }
}
