/// Compiled nodes or expressions in order, each visited without retaining and releasing it.
///
/// Iterating an array of class references retains each element for the time it is used,
/// which a rendering would do for every node of every block it runs. The list keeps its
/// elements alive itself (``elements``), so the visits can borrow them instead: the one place
/// the engine uses `Unmanaged`'s guaranteed reference.
struct VTLCodeList<Element: AnyObject> {
    /// The elements, held strongly for as long as the list exists.
    let elements: [Element]
    private let references: [Unmanaged<Element>]

    init(_ elements: [Element]) {
        self.elements = elements
        references = elements.map { Unmanaged.passUnretained($0) }
    }

    var count: Int { references.count }
    var isEmpty: Bool { references.isEmpty }

    /// Calls `body` with each element, in order.
    @inline(__always)
    func forEach(_ body: (Element) throws -> Void) rethrows {
        for reference in references {
            // Safe: `elements` holds every element while the list exists.
            try reference._withUnsafeGuaranteedRef(body)
        }
    }

    /// Calls `body` with each element, in order, until it returns true; whether it did.
    @inline(__always)
    func contains(where body: (Element) throws -> Bool) rethrows -> Bool {
        for reference in references where try reference._withUnsafeGuaranteedRef(body) { return true }
        return false
    }

    /// The element at `offset`, borrowed for `body`.
    @inline(__always)
    func with<Result>(_ offset: Int, _ body: (Element) throws -> Result) rethrows -> Result {
        try references[offset]._withUnsafeGuaranteedRef(body)
    }
}
