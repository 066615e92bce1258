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

    func json(_ item: Item, model: Model, field: MutationField) async -> JSONValue {
        await json(item, model: model, selections: field.selections, fragments: field.fragments)
    }

    private func json(
        _ item: Item, model: Model, selections: [SelectionSet], fragments: [String: FragmentDefinition]
    ) async -> JSONValue {
        var out = item
        out["_ttl"] = nil
        out["__typename"] = .string(model.name)
        for field in SelectionFields.fields(in: selections, fragments: fragments, strict: false) ?? [] {
            guard let relation = model.field(named: field.name.value)?.relation, !relation.isConnection,
                let related = try? await queries.object(from: item, relation: relation)
            else { continue }
            out[field.name.value] = await json(
                related.item, model: queries.environment.model(relation.relatedModel),
                selections: field.selectionSet.map { [$0] } ?? [], fragments: fragments)
        }
        return .object(out)
    }
}
