import DeltaSyncCore
import GraphQL

/// A subscription's selection on a type that is not a model (the result of a custom mutation
/// a custom subscription listens to), planned once: each event's data is written along it,
/// keys in the subscription's order under its aliases, `null` where the mutation did not
/// select a field.
struct ValueSelection: Sendable {
    private struct Member: Sendable {
        let renderedKey: [UInt8]
        let field: String
        let content: Content
    }

    private enum Content: Sendable {
        case typename(String)
        case value
        case object(ValueSelection)
    }

    private let members: [Member]

    /// The plan of `selection` on `type`.
    init(_ selection: [SelectionSet], type: GraphQLOutputType, fragments: [String: FragmentDefinition], variables: [String: JSONValue]) {
        let object = namedType(of: type) as? GraphQLObjectType
        let typeFields = (try? object?.fields()) ?? [:]
        var members: [Member] = []
        var seen: Set<String> = []
        let fields = selection.flatMap { SelectionFields.included(in: $0, fragments: fragments, variables: variables) }
        for field in fields {
            let key = field.alias?.value ?? field.name.value
            guard seen.insert(key).inserted else { continue }
            var renderedKey: [UInt8] = []
            JSONWriter.writeString(key, to: &renderedKey)
            renderedKey.append(UInt8(ascii: ":"))
            let name = field.name.value
            let content: Content
            if name == "__typename" {
                content = .typename(object?.name ?? "")
            } else if let fieldType = typeFields[name]?.type, field.selectionSet != nil {
                let sets = fields.filter { ($0.alias?.value ?? $0.name.value) == key }.compactMap(\.selectionSet)
                content = .object(ValueSelection(sets, type: fieldType, fragments: fragments, variables: variables))
            } else {
                content = .value
            }
            members.append(Member(renderedKey: renderedKey, field: name, content: content))
        }
        self.members = members
    }

    /// `value` (an object, a list of them, or null) along the selection.
    func write(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: member.renderedKey)
                switch member.content {
                case .typename(let name): JSONWriter.writeString(name, to: &out)
                case .value: JSONWriter.write(object[member.field] ?? .null, to: &out)
                case .object(let nested): nested.write(object[member.field] ?? .null, to: &out)
                }
            }
            out.append(UInt8(ascii: "}"))
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        default:
            out.append(contentsOf: "null".utf8)
        }
    }
}
