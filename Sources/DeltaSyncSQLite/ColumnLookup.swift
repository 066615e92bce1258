import DeltaSyncCore

/// Finds a column's position by its name, for binding an item's fields.
///
/// Binding a sync page looks up a dozen field names per record; hashing each with the standard
/// hasher cost more than binding its value. A name's length and end bytes are read without
/// hashing (``fingerprint(_:)``) and almost always tell the columns apart; an open-addressed
/// table with linear probing resolves the rest by comparing names.
struct ColumnLookup: Sendable {
    private let names: [String]
    /// The names' UTF-8, for names read from JSON text (``position(utf8:)``).
    private let utf8Names: [[UInt8]]
    /// Column positions by fingerprint slot, `-1` for an empty slot; at least four slots per
    /// column (a power of two), so probes are short.
    private let slots: [Int]

    init(_ names: [String]) {
        self.names = names
        utf8Names = names.map { Array($0.utf8) }
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

    /// ``position(of:)`` for a name's UTF-8.
    func position(utf8 name: UnsafeBufferPointer<UInt8>) -> Int? {
        let mask = slots.count - 1
        var slot = Self.fingerprint(count: name.count, first: name.first, last: name.last) & mask
        while true {
            let i = slots[slot]
            if i < 0 { return nil }
            if utf8Names[i].withUnsafeBufferPointer({ JSONScanner.equal($0, name) }) { return i }
            slot = (slot + 1) & mask
        }
    }

    /// Length and end bytes: cheap, and distinct for most names of one model.
    static func fingerprint(_ name: String) -> Int {
        let utf8 = name.utf8
        return fingerprint(count: utf8.count, first: utf8.first, last: utf8.last)
    }

    private static func fingerprint(count: Int, first: UInt8?, last: UInt8?) -> Int {
        count &* 961 &+ Int(first ?? 0) &* 31 &+ Int(last ?? 0)
    }
}
