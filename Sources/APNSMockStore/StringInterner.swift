/// Gives each distinct string a small number, so records store numbers instead of copies.
/// Number 0 means "none". Not thread-safe: lives inside `DeliveryStore`'s lock.
struct StringInterner: Sendable {
    private var ids: [String: UInt32] = [:]
    private var strings: [String] = [""]
    /// The last string asked for: pushes in a row mostly share their topic.
    private var lastString = ""
    private var lastID: UInt32 = 0

    mutating func id(for string: String) -> UInt32 {
        if lastID != 0, string == lastString { return lastID }
        let id = lookUpOrAdd(string)
        lastString = string
        lastID = id
        return id
    }

    private mutating func lookUpOrAdd(_ string: String) -> UInt32 {
        if let id = ids[string] { return id }
        let id = UInt32(strings.count)
        strings.append(string)
        ids[string] = id
        return id
    }

    /// The id of `string` if it was ever interned.
    func existingID(for string: String) -> UInt32? { ids[string] }

    func string(for id: UInt32) -> String? { id == 0 ? nil : strings[Int(id)] }
}
