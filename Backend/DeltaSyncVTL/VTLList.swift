import DeltaSyncCore

/// A Java `List`: shared by every reference to it.
public final class VTLList {
    /// The elements, in order.
    public var items: [VTLValue] {
        _read {
            if pending != nil { convert() }
            yield stored
        }
        _modify {
            if pending != nil { convert() }
            yield &stored
        }
    }

    // Unchecked: every access is through `items`, whose accessors do not overlap one another,
    // and the dynamic checks a class's properties get otherwise cost on every list operation.
    @exclusivity(unchecked) private var stored: [VTLValue]
    /// A JSON array not converted yet (``VTLValue/init(json:)``); `nil` once it is.
    @exclusivity(unchecked) private var pending: [JSONValue]?

    /// A list of `items`.
    public init(_ items: [VTLValue] = []) { stored = items }

    init(json: [JSONValue]) {
        stored = []
        pending = json
    }

    private func convert() {
        guard let json = pending else { return }
        pending = nil
        stored = json.map(VTLValue.init(json:))
    }

    /// The list as JSON; one never converted is its JSON as it came.
    var json: JSONValue {
        if let pending { return .array(pending) }
        return .array(stored.map(\.json))
    }

    /// A new list of copies of the items.
    var copied: VTLList {
        if let pending { return VTLList(json: pending) }
        return VTLList(stored.map(\.copied))
    }
}
