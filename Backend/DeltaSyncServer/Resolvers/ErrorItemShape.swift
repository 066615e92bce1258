import DeltaSyncCore
import DeltaSyncSchema
import GraphQL

/// The server item as it goes into `errors[].data` of a failed mutation: every stored field
/// with `__typename` and the sync metadata (Amplify Swift decodes it as a full model with
/// metadata), plus the `@belongsTo`/`@hasOne` objects the mutation selected, resolved the same
/// way, because clients select `post { id _deleted }` and a missing non-null object nulls the
/// whole `data` on their side.
struct ErrorItemShape: Sendable {
    let queries: QueryResolvers

    func json(_ item: Item, model: Model, info: GraphQLResolveInfo) async -> JSONValue {
        await json(item, model: model, selections: info.fieldASTs.compactMap(\.selectionSet), fragments: info.fragments)
    }

    private func json(
        _ item: Item, model: Model, selections: [SelectionSet], fragments: [String: FragmentDefinition]
    ) async -> JSONValue {
        var out = item
        out["_ttl"] = nil
        out["__typename"] = .string(model.name)
        for field in Self.fields(in: selections, fragments: fragments) {
            guard let relation = model.field(named: field.name.value)?.relation, !relation.isConnection,
                let related = try? await queries.object(from: item, relation: relation)
            else { continue }
            out[field.name.value] = await json(
                related.item, model: queries.environment.model(relation.relatedModel),
                selections: field.selectionSet.map { [$0] } ?? [], fragments: fragments)
        }
        return .object(out)
    }

    /// The fields of selection sets, with fragments expanded.
    private static func fields(in sets: [SelectionSet], fragments: [String: FragmentDefinition]) -> [GraphQL.Field] {
        var result: [GraphQL.Field] = []
        var pending = sets
        var seenFragments: Set<String> = []
        while let set = pending.popLast() {
            for selection in set.selections {
                switch selection {
                case let field as GraphQL.Field:
                    result.append(field)
                case let inline as InlineFragment:
                    pending.append(inline.selectionSet)
                case let spread as FragmentSpread:
                    let name = spread.name.value
                    if let fragment = fragments[name], seenFragments.insert(name).inserted {
                        pending.append(fragment.selectionSet)
                    }
                default:
                    continue
                }
            }
        }
        return result
    }
}
