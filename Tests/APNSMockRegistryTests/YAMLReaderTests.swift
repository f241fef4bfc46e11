import APNSMockRegistry
import Testing

/// Configuration and expectation files are read by libyaml's parser and `YAMLReader`'s tree
/// (not Yams: Yams needs swift-corelibs-foundation, which carries ICU's 34 MB into the binary).
@Suite struct YAMLReaderTests {
    /// A value as text: `p:` a plain scalar, `s:` a quoted one, `null`, `[…]`, `{key=…}`.
    static func shape(_ value: SpecValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return "b:\(flag)"
        case .integer(let number): return "i:\(number)"
        case .number(let number): return "n:\(number)"
        case .string(let text): return "s:\(text)"
        case .plain(let text): return "p:\(text)"
        case .array(let elements): return "[" + elements.map(shape).joined(separator: ",") + "]"
        case .object(let fields):
            return "{" + fields.map { "\($0.key)=\(shape($0.value))" }.joined(separator: ",") + "}"
        }
    }

    static func read(_ yaml: String) throws -> String { shape(try SpecValue.parse(yaml: yaml)) }

    static func problem(_ yaml: String) -> String {
        do {
            let value = try SpecValue.parse(yaml: yaml)
            return "parsed: \(shape(value))"
        } catch {
            return error.description
        }
    }

    @Test func plainScalarsKeepTheirTextAndQuotedOnesAreStrings() throws {
        #expect(
            try Self.read("port: 2197\nflag: on\ntoken: 0123abcd\nname: \"2197\"\nother: 'x'\ntagged: !!str 7")
                == "{port=p:2197,flag=p:on,token=p:0123abcd,name=s:2197,other=s:x,tagged=s:7}")
    }

    /// YAML 1.2's core schema spells null `~`, `null`, `Null`, `NULL` or nothing; quoted, it is text.
    @Test func nullsAreYAMLsAndOnlyWhenPlain() throws {
        #expect(
            try Self.read("a: ~\nb: null\nc: Null\nd: NULL\ne:\nf: 'null'\ng: nil")
                == "{a=null,b=null,c=null,d=null,e=null,f=s:null,g=p:nil}")
    }

    @Test func blockAndFlowCollectionsNest() throws {
        #expect(
            try Self.read("setup:\n  keys:\n    - {id: A, env: both}\n    - [1, 2]\nexpect: []\n")
                == "{setup={keys=[{id=p:A,env=p:both},[p:1,p:2]]},expect=[]}")
    }

    @Test func anEmptyDocumentIsAnEmptyObject() throws {
        #expect(try Self.read("") == "{}")
        #expect(try Self.read("# only a comment\n") == "{}")
    }

    @Test func aliasesStandForTheirAnchors() throws {
        #expect(
            try Self.read("base: &b {topic: com.example}\none: *b\nname: &n hello\n*n : again")
                == "{base={topic=p:com.example},one={topic=p:com.example},name=p:hello,hello=p:again}")
    }

    @Test func eachKeyPathSaysItsLine() throws {
        var lines: [String: Int] = [:]
        _ = try SpecValue.parse(yaml: "setup:\n  keys:\n    - id: A\n\n      env: both\nexpect: []\n", lines: &lines)
        #expect(lines["setup"] == 1)
        #expect(lines["setup.keys"] == 2)
        #expect(lines["setup.keys[0]"] == 3)
        #expect(lines["setup.keys[0].env"] == 5)
        #expect(lines["expect"] == 6)
    }

    @Test(arguments: [
        ("host: a\nhost: b", "is not valid YAML: line 1, column 1: 'host' is given twice"),
        ("a: [1\n", "is not valid YAML: line 2, column 1: did not find expected ',' or ']'"),
        ("a: b: c", "is not valid YAML: line 1, column 5: mapping values are not allowed in this context"),
        ("a: 1\n---\nb: 2", "is not valid YAML: line 2, column 1: a second document starts here"),
        ("? [a]\n: 1", "has a key that is not a plain name"),
        ("a: *missing", "a is a YAML alias whose anchor is not defined"),
    ])
    func badTextSaysWhereAndWhat(_ yaml: String, _ expected: String) {
        let problem = Self.problem(yaml)
        #expect(problem.hasPrefix(expected), "\(problem)")
    }

    /// Nesting is bounded as JSON's is, and read without recursion: 100,000 brackets are refused,
    /// not a stack overflow.
    @Test func nestingDeeperThan512IsRefused() throws {
        #expect(try Self.read(String(repeating: "[", count: 512) + String(repeating: "]", count: 512)).hasPrefix("[[["))
        let problem = Self.problem(String(repeating: "[", count: 100_000))
        #expect(problem.contains("nests deeper than 512 levels"), "\(problem)")
    }

    /// "Billion laughs": each alias stands for ten of the one before; expanded, nine levels hold
    /// a billion values. The reader counts what aliases stand for and stops at ten million.
    @Test func anAliasBombIsRefused() {
        var yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            let previous = "*a\(level - 1)"
            yaml += "a\(level): &a\(level) [\(Array(repeating: previous, count: 10).joined(separator: ", "))]\n"
        }
        let problem = Self.problem(yaml)
        #expect(problem.contains("holds more than 10000000 values once its aliases are expanded"), "\(problem)")
    }
}
