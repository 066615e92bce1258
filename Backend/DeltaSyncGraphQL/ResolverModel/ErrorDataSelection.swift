import DeltaSyncCore
import GraphQL

/// A template's error `data` as AppSync reports it: filtered by the field's selection set, as
/// the field's value would be, selected fields the data lacks shown as null (`errorInfo` is not
/// filtered). An error whose data carries a
/// whole stored item shows the client only what it asked for.
enum ErrorDataSelection {
    /// `data` with only the fields `info`'s selection names, at every depth; lists filtered
    /// element by element, scalars kept.
    static func filter(_ data: JSONValue, info: GraphQLResolveInfo) -> JSONValue {
        guard let field = info.fieldASTs.first, let selection = field.selectionSet else { return data }
        return filter(data, [selection], fragments: info.fragments, depth: 0)
    }

    private static func filter(_ value: JSONValue, _ sets: [SelectionSet], fragments: [String: FragmentDefinition], depth: Int) -> JSONValue {
        guard depth < 32 else { return .null }
        switch value {
        case .array(let elements):
            return .array(elements.map { filter($0, sets, fragments: fragments, depth: depth + 1) })
        case .object(let object):
            var kept: Item = [:]
            for field in SelectionFields.fields(in: sets, fragments: fragments, strict: false) ?? [] {
                let name = field.name.value
                let key = field.alias?.value ?? name
                // A selected field the data lacks is null, as the field's value would show it.
                guard let inner = object[name] else {
                    if name != "__typename" { kept[key] = .null }
                    continue
                }
                kept[key] = field.selectionSet.map { filter(inner, [$0], fragments: fragments, depth: depth + 1) } ?? inner
            }
            return .object(kept)
        default:
            return value
        }
    }
}
