import CYAML

/// Reads one YAML document into a `SpecValue`, with libyaml's parser (Debian's `libyaml-dev`) for
/// the grammar and this file for the rest: the tree, anchors and aliases, duplicate keys, and
/// which scalars are null.
///
/// A plain (unquoted) scalar keeps its text (`SpecValue.plain`), except YAML's nulls (`~`,
/// `null`, `Null`, `NULL`, or nothing); a quoted one, or one tagged `!!str`, is a string. The
/// tree is built without recursion, nests at most `maximumDepth` deep, and holds at most
/// `maximumValues` values once aliases are expanded, so no file makes the reader recurse
/// without bound or expand an alias bomb.
struct YAMLReader {
    /// Deepest nesting accepted, as for JSON (`JSONSyntax.maximumDepth`).
    static let maximumDepth = 512
    /// Most values one document may hold, counting each alias as the values it stands for.
    static let maximumValues = 10_000_000

    /// The line (1-based) on which each key path starts, for messages about a value that parsed
    /// but cannot be used.
    private(set) var lines: [String: Int] = [:]

    private var stack: [Frame] = []
    private var anchors: [String: Anchored] = [:]
    private var root: SpecValue?
    private var valueCount = 0

    /// A value an anchor names: what an alias stands for.
    private struct Anchored {
        var value: SpecValue
        /// The scalar's text, when the value is a scalar (an alias used as a key needs it).
        var scalarText: String?
        var valueCount: Int
    }

    /// A collection being read.
    private struct Frame {
        enum Kind {
            case sequence([SpecValue])
            case mapping([(key: String, value: SpecValue)])
        }
        var kind: Kind
        let path: String
        let anchor: String?
        let mark: yaml_mark_t
        /// A mapping's key waiting for its value.
        var pendingKey: String?
        var keys: Set<String> = []
        var duplicates: Set<String> = []
        /// Values in this collection (for an anchor on it), itself included.
        var valueCount = 1
    }

    /// Parses the first and only document in `text`; an empty document is nil.
    /// - Throws: `SpecError` with a one-line problem naming the line and column.
    mutating func read(_ text: String) throws(SpecError) -> SpecValue? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw SpecError(path: "", problem: "cannot be read: the YAML parser could not start", code: .unreadable)
        }
        defer { yaml_parser_delete(&parser) }
        var bytes = Array(text.utf8)
        bytes.append(0)  // a valid address even for an empty text; not part of the input
        return try bytes.withUnsafeBufferPointer { (buffer) throws(SpecError) -> SpecValue? in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count - 1)
            var documents = 0
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { throw Self.problem(of: parser) }
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return root
                case YAML_DOCUMENT_START_EVENT:
                    documents += 1
                    if documents > 1 {
                        throw Self.invalid(
                            at: event.start_mark, "a second document starts here; give one document per file")
                    }
                case YAML_SCALAR_EVENT:
                    try scalar(event)
                case YAML_ALIAS_EVENT:
                    try alias(event)
                case YAML_SEQUENCE_START_EVENT:
                    try open(.sequence([]), anchor: Self.text(event.data.sequence_start.anchor), mark: event.start_mark)
                case YAML_MAPPING_START_EVENT:
                    try open(.mapping([]), anchor: Self.text(event.data.mapping_start.anchor), mark: event.start_mark)
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    try close()
                default:
                    break
                }
            }
        }
    }

    // MARK: Events

    private mutating func scalar(_ event: yaml_event_t) throws(SpecError) {
        let data = event.data.scalar
        let text = String(
            decoding: UnsafeBufferPointer(start: data.value, count: Int(data.length)), as: UTF8.self)
        let tag = Self.text(data.tag)
        let value: SpecValue
        if tag == "tag:yaml.org,2002:str"
            || (data.style != YAML_PLAIN_SCALAR_STYLE && data.style != YAML_ANY_SCALAR_STYLE)
        {
            value = .string(text)
        } else if Self.nulls.contains(text) {
            value = .null
        } else {
            value = .plain(text)
        }
        if let anchor = Self.text(data.anchor) {
            anchors[anchor] = Anchored(value: value, scalarText: text, valueCount: 1)
        }
        try add(value, scalarText: text, count: 1, mark: event.start_mark)
    }

    private mutating func alias(_ event: yaml_event_t) throws(SpecError) {
        let name = Self.text(event.data.alias.anchor) ?? ""
        guard let anchored = anchors[name] else {
            throw SpecError(path: childPath(), problem: "is a YAML alias whose anchor is not defined")
        }
        try add(anchored.value, scalarText: anchored.scalarText, count: anchored.valueCount, mark: event.start_mark)
    }

    private mutating func open(_ kind: Frame.Kind, anchor: String?, mark: yaml_mark_t) throws(SpecError) {
        let path = childPath()
        if let top = stack.last, case .mapping = top.kind, top.pendingKey == nil {
            throw SpecError(path: top.path, problem: "has a key that is not a plain name")
        }
        guard stack.count < Self.maximumDepth else {
            throw Self.invalid(at: mark, "nests deeper than \(Self.maximumDepth) levels")
        }
        try count(1, mark: mark)
        if lines[path] == nil { lines[path] = Int(mark.line) + 1 }
        stack.append(Frame(kind: kind, path: path, anchor: anchor, mark: mark))
    }

    private mutating func close() throws(SpecError) {
        guard let frame = stack.popLast() else { return }
        let value: SpecValue
        switch frame.kind {
        case .sequence(let elements): value = .array(elements)
        case .mapping(let fields):
            if !frame.duplicates.isEmpty {
                let names = frame.duplicates.sorted().map { "'\($0)'" }.joined(separator: ", ")
                throw Self.invalid(at: frame.mark, "\(names) is given twice")
            }
            value = .object(fields)
        }
        if let anchor = frame.anchor {
            anchors[anchor] = Anchored(value: value, scalarText: nil, valueCount: frame.valueCount)
        }
        // The collection's own value was counted when it opened.
        try place(value, scalarText: nil, count: frame.valueCount, mark: frame.mark)
    }

    // MARK: Building the tree

    /// A new value (a scalar, or an alias of `count` values) where the reader is.
    private mutating func add(_ value: SpecValue, scalarText: String?, count: Int, mark: yaml_mark_t) throws(SpecError)
    {
        try self.count(count, mark: mark)
        let path = childPath()
        if lines[path] == nil, !isAtKey { lines[path] = Int(mark.line) + 1 }
        try place(value, scalarText: scalarText, count: count, mark: mark)
    }

    /// Puts a finished value into the collection being read (or makes it the root).
    private mutating func place(_ value: SpecValue, scalarText: String?, count: Int, mark: yaml_mark_t)
        throws(SpecError)
    {
        guard var top = stack.popLast() else {
            root = value
            return
        }
        top.valueCount += count
        switch top.kind {
        case .sequence(var elements):
            top.kind = .sequence([])
            elements.append(value)
            top.kind = .sequence(elements)
        case .mapping(var fields):
            if let key = top.pendingKey {
                top.kind = .mapping([])
                fields.append((key, value))
                top.kind = .mapping(fields)
                top.pendingKey = nil
            } else {
                guard let key = scalarText else {
                    stack.append(top)
                    throw SpecError(path: top.path, problem: "has a key that is not a plain name")
                }
                if !top.keys.insert(key).inserted { top.duplicates.insert(key) }
                top.pendingKey = key
                lines[SpecError.join(top.path, key: key)] = Int(mark.line) + 1
            }
        }
        stack.append(top)
    }

    private mutating func count(_ values: Int, mark: yaml_mark_t) throws(SpecError) {
        valueCount += values
        guard valueCount <= Self.maximumValues else {
            throw Self.invalid(
                at: mark, "holds more than \(Self.maximumValues) values once its aliases are expanded")
        }
    }

    /// Whether the next value read is a mapping's key.
    private var isAtKey: Bool {
        guard let top = stack.last, case .mapping = top.kind else { return false }
        return top.pendingKey == nil
    }

    /// The key path of the next value read.
    private func childPath() -> String {
        guard let top = stack.last else { return "" }
        switch top.kind {
        case .sequence(let elements): return SpecError.join(top.path, index: elements.count)
        case .mapping: return top.pendingKey.map { SpecError.join(top.path, key: $0) } ?? top.path
        }
    }

    // MARK: Helpers

    /// YAML's spellings of null for a plain scalar (YAML 1.2's core schema).
    private static let nulls: Set<String> = ["", "~", "null", "Null", "NULL"]

    private static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    /// `is not valid YAML: line 3, column 5: …` (1-based, as editors count).
    private static func invalid(at mark: yaml_mark_t, _ problem: String) -> SpecError {
        SpecError(path: "", problem: "is not valid YAML: line \(mark.line + 1), column \(mark.column + 1): \(problem)")
    }

    /// libyaml's own words for a text it cannot parse, with where it was and what it was reading.
    private static func problem(of parser: yaml_parser_t) -> SpecError {
        var problem = parser.problem.map { String(cString: $0) } ?? "cannot be parsed"
        // libyaml's own bound (1,000 levels), which its scanner can meet first while it reads ahead.
        if problem.hasPrefix("Maximum nesting level reached") {
            problem = "nests deeper than \(maximumDepth) levels"
        }
        switch parser.error {
        case YAML_READER_ERROR:
            return SpecError(path: "", problem: "is not valid YAML: byte \(parser.problem_offset): \(problem)")
        case YAML_MEMORY_ERROR:
            return SpecError(path: "", problem: "cannot be read: out of memory", code: .unreadable)
        default:
            let during =
                parser.context.map {
                    " (\(String(cString: $0)) at line \(parser.context_mark.line + 1), column \(parser.context_mark.column + 1))"
                } ?? ""
            return invalid(at: parser.problem_mark, problem + during)
        }
    }
}
