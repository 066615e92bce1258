/// Finds a column's position by its name, for binding an item's fields.
///
/// Binding a sync page looks up a dozen field names per record; hashing each with the standard
/// hasher cost more than binding its value. A name's length and end bytes are read without
/// hashing (``fingerprint(_:)``) and almost always tell the columns apart; an open-addressed
/// table with linear probing resolves the rest by comparing names.
struct ColumnLookup: Sendable {
    private let names: [String]
    /// Column positions by fingerprint slot, `-1` for an empty slot; at least four slots per
    /// column (a power of two), so probes are short.
    private let slots: [Int]

    init(_ names: [String]) {
        self.names = names
        var slots = [Int](repeating: -1, count: max(8, 1 << (Int.bitWidth - (names.count * 4).leadingZeroBitCount)))
        for (i, name) in names.enumerated() {
            var slot = Self.fingerprint(name) & (slots.count - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = i
        }
        self.slots = slots
    }

    /// The position of the column named `name`, `nil` when there is none.
    func position(of name: String) -> Int? {
        let mask = slots.count - 1
        var slot = Self.fingerprint(name) & mask
        while true {
            let i = slots[slot]
            if i < 0 { return nil }
            if names[i] == name { return i }
            slot = (slot + 1) & mask
        }
    }

    /// Length and end bytes: cheap, and distinct for most names of one model.
    static func fingerprint(_ name: String) -> Int {
        let utf8 = name.utf8
        return utf8.count &* 961 &+ Int(utf8.first ?? 0) &* 31 &+ Int(utf8.last ?? 0)
    }
}
