/// One object being written member by member, taken back out of the text when a member nulls it.
struct ObjectText {
    private let start: Int

    init(_ out: inout [UInt8]) {
        start = out.count
        out.append(UInt8(ascii: "{"))
    }

    /// Writes what precedes member `index`; returns where its failures start.
    func begin(_ index: Int, key: [UInt8], into out: inout [UInt8], failures: borrowing [ProjectionFailure]) -> Int {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        out.append(contentsOf: key)
        return failures.count
    }

    /// After the member at response key `key`: its failures placed under it; `false`, with the
    /// object's text removed, when it was not written and the object is null.
    func end(_ written: Bool, key: String, mark: Int, into out: inout [UInt8], failures: inout [ProjectionFailure]) -> Bool {
        failures.place(from: mark, within: .key(key))
        if !written { out.removeSubrange(start...) }
        return written
    }

    func finish(into out: inout [UInt8]) -> Bool {
        out.append(UInt8(ascii: "}"))
        return true
    }
}
