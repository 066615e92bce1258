import DeltaSyncCore
import DeltaSyncGraphQL
import GraphQL

/// A subscription's selection set, planned once when it starts: writes an event's data as the
/// subscription selected it. Fields the mutation did not select are null; a null in a non-null
/// field nulls its parent and adds AppSync's error, as GraphQL execution would.
///
/// Subscriptions with the same query text and variables share one shape, so an event is
/// written once per distinct selection, however many subscribers it reaches.
final class EventShape: Sendable {
    struct Object: Sendable {
        let typeName: String
        let entries: [Entry]
    }

    struct Entry: Sendable {
        /// The response key, for error paths.
        let key: String
        /// `"key":`, rendered once.
        let renderedKey: [UInt8]
        let field: String
        let kind: Kind
    }

    enum Kind: Sendable {
        case typename(String)
        /// `required` is the GraphQL type of a non-null field (for the error), `nil` otherwise;
        /// `object` the shape of an object (or each object of a list).
        case value(required: String?, object: Object?)
    }

    /// The subscription field's response key.
    let rootKey: String
    let root: Object

    init(rootKey: String, root: Object) {
        self.rootKey = rootKey
        self.root = root
    }

    /// Plans `selection` on `type`.
    ///
    /// - Parameter variables: for `@include`/`@skip`.
    static func object(
        _ type: GraphQLObjectType, selection: SelectionSet, fragments: [String: FragmentDefinition],
        variables: [String: JSONValue]
    ) throws -> Object {
        var entries: [Entry] = []
        for field in SelectionFields.included(in: selection, fragments: fragments, variables: variables) {
            let key = field.alias?.value ?? field.name.value
            var rendered: [UInt8] = []
            JSONWriter.writeString(key, to: &rendered)
            rendered.append(UInt8(ascii: ":"))
            let name = field.name.value
            if name == "__typename" {
                entries.append(Entry(key: key, renderedKey: rendered, field: name, kind: .typename(type.name)))
                continue
            }
            guard let definition = try type.fields()[name] else {
                throw AppSyncError(.internalFailure, "Type \(type.name) has no field \(name).")
            }
            let required = (definition.type as? GraphQLNonNull).map { Self.describe($0.ofType) }
            var object: Object?
            if let objectType = namedType(of: definition.type) as? GraphQLObjectType, let sub = field.selectionSet {
                object = try Self.object(objectType, selection: sub, fragments: fragments, variables: variables)
            }
            entries.append(Entry(key: key, renderedKey: rendered, field: name, kind: .value(required: required, object: object)))
        }
        return Object(typeName: type.name, entries: entries)
    }

    private static func describe(_ type: GraphQLType) -> String {
        if let nonNull = type as? GraphQLNonNull { return describe(nonNull.ofType) + "!" }
        if let list = type as? GraphQLList { return "[\(describe(list.ofType))]" }
        return (type as? GraphQLNamedType)?.name ?? "\(type)"
    }

    // MARK: - Writing

    /// `{"data":{"<rootKey>":...}}`, plus `errors` when a non-null field had no value.
    func payload(for data: JSONValue) -> [UInt8] {
        var out = Array(#"{"data":{"#.utf8)
        JSONWriter.writeString(rootKey, to: &out)
        out.append(UInt8(ascii: ":"))
        var errors: [Map] = []
        if data.isNull || !write(data, root, path: ResponsePath([.key(rootKey)]), into: &out, errors: &errors) {
            out.append(contentsOf: "null".utf8)
        }
        out.append(UInt8(ascii: "}"))
        if !errors.isEmpty {
            out.append(contentsOf: #","errors":"#.utf8)
            ResponseJSON.write(.array(errors), to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// Writes an object; `false` (with nothing written) when a non-null field had no value.
    private func write(_ value: JSONValue, _ shape: Object, path: ResponsePath, into out: inout [UInt8], errors: inout [Map]) -> Bool {
        guard case .object(let object) = value else {
            out.append(contentsOf: "null".utf8)
            return true
        }
        let start = out.count
        out.append(UInt8(ascii: "{"))
        for (i, entry) in shape.entries.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: entry.renderedKey)
            switch entry.kind {
            case .typename(let name):
                JSONWriter.writeString(name, to: &out)
            case .value(let required, let nested):
                let fieldValue = object[entry.field] ?? .null
                let fieldPath = path + [.key(entry.key)]
                if fieldValue.isNull {
                    if let required {
                        errors.append(ErrorShape.nullInNonNull(type: required, parent: shape.typeName, path: fieldPath))
                        out.removeSubrange(start...)
                        return false
                    }
                    out.append(contentsOf: "null".utf8)
                } else if let nested {
                    if case .array(let elements) = fieldValue {
                        out.append(UInt8(ascii: "["))
                        for (n, element) in elements.enumerated() {
                            if n > 0 { out.append(UInt8(ascii: ",")) }
                            if !write(element, nested, path: fieldPath + [.index(n)], into: &out, errors: &errors) {
                                out.append(contentsOf: "null".utf8)
                            }
                        }
                        out.append(UInt8(ascii: "]"))
                    } else if !write(fieldValue, nested, path: fieldPath, into: &out, errors: &errors) {
                        guard required == nil else {
                            out.removeSubrange(start...)
                            return false
                        }
                        out.append(contentsOf: "null".utf8)
                    }
                } else {
                    JSONWriter.write(fieldValue, to: &out)
                }
            }
        }
        out.append(UInt8(ascii: "}"))
        return true
    }
}
