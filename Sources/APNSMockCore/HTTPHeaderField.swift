/// One request header as received: a lower-case name and its value.
public struct HTTPHeaderField: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
