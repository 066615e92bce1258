import DeltaSyncCore
import DeltaSyncSchema

/// `@hasMany` connections a realtime event carries (``ItemPlan/Entry/connection(_:_:)``).
extension ItemProjection {
    /// A connection an event carries, with the items the subscriber may read; `false` when
    /// `items` is missing (its parent is then null).
    func write(
        _ carried: Item, connection: EventPagePlan, readable: RelatedAccess, into out: inout [UInt8], failures: inout [ProjectionFailure]
    ) -> Bool {
        let object = ObjectText(&out)
        for (i, (key, renderedKey, member)) in connection.members.enumerated() {
            let mark = object.begin(i, key: renderedKey, into: &out, failures: failures)
            var written = true
            switch member {
            case .typename(let name):
                JSONWriter.writeString(name, to: &out)
            case .stored(let name):
                JSONWriter.write(carried[name] ?? .null, to: &out)
            case .items(let plan):
                if let plan, case .array(let carriedElements)? = carried["items"] {
                    let elements = carriedElements.filter { $0.objectValue.map(readable.admits) ?? true }
                    out.append(UInt8(ascii: "["))
                    for (n, element) in elements.enumerated() {
                        if n > 0 { out.append(UInt8(ascii: ",")) }
                        let start = failures.count
                        if !(element.objectValue.map { write($0, plan: plan, into: &out, failures: &failures) } ?? false) {
                            out.append(contentsOf: "null".utf8)
                        }
                        failures.place(from: start, within: .index(n))
                    }
                    out.append(UInt8(ascii: "]"))
                } else {
                    failures.append(ProjectionFailure(.nullInNonNull(type: "[\(plan?.typeName ?? "")]", parent: connection.typeName)))
                    written = false
                }
            }
            guard object.end(written, key: key, mark: mark, into: &out, failures: &failures) else { return nullable(true, into: &out) }
        }
        return object.finish(into: &out)
    }
}
