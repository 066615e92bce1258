import DeltaSyncCore
import DeltaSyncSchema
import GraphQL

/// The server item as it goes into `errors[].data` of a failed mutation: projected onto the
/// mutation's selection set like a `data` result. AppSync filters the error's data by the
/// selection set; clients build their remote model from it.
///
/// - Only selected fields appear, under their response keys; a selected field without a value
///   is `null`, and `__typename` appears where it is selected.
/// - A selected `@belongsTo`/`@hasOne` object is resolved and projected the same way. Clients
///   select `author { id _deleted }`, and a missing non-null object nulls their whole `data`;
///   a nested object carrying fields they did not select (its own `_version`) makes
///   amplify-js's generated relation setter throw, so the conflict handler never runs.
/// - A `@hasMany` connection is `null`: no DataStore client selects one in a mutation.
struct ErrorItemShape: Sendable {
    let queries: QueryResolvers

    func json(_ item: Item, model: Model, field: MutationField) async -> JSONValue {
        await json(item, model: model, selections: field.selections, field: field)
    }

    private func json(_ item: Item, model: Model, selections: [SelectionSet], field: MutationField) async -> JSONValue {
        var out: Item = [:]
        for selected in selections.flatMap({ SelectionFields.included(in: $0, fragments: field.fragments, variables: field.variables) }) {
            let key = selected.alias?.value ?? selected.name.value
            let name = selected.name.value
            guard name != "__typename" else {
                out[key] = .string(model.name)
                continue
            }
            guard let schemaField = model.field(named: name) else {
                out[key] = item[name] ?? .null
                continue
            }
            if let relation = schemaField.relation {
                out[key] = await related(item, relation: relation, selection: selected.selectionSet, field: field)
            } else {
                out[key] = project(item[name] ?? .null, of: schemaField, selection: selected.selectionSet, field: field)
            }
        }
        return .object(out)
    }

    private func related(_ item: Item, relation: Relation, selection: SelectionSet?, field: MutationField) async -> JSONValue {
        guard !relation.isConnection, let selection,
            let related = try? await queries.object(from: item, relation: relation)
        else { return .null }
        return await json(
            related.item, model: queries.environment.model(relation.relatedModel), selections: [selection], field: field)
    }

    /// A stored value projected onto its sub-selection: non-model objects keep only the
    /// selected fields; scalars are written as stored.
    private func project(_ value: JSONValue, of schemaField: DeltaSyncSchema.Field, selection: SelectionSet?, field: MutationField) -> JSONValue {
        guard let selection, case .nonModel(let typeName) = schemaField.type,
            let type = queries.environment.schema.nonModel(named: typeName)
        else { return value }
        switch value {
        case .array(let elements):
            return .array(elements.map { project($0, type: type, selection: selection, field: field) })
        case .object:
            return project(value, type: type, selection: selection, field: field)
        default:
            return value
        }
    }

    private func project(_ value: JSONValue, type: NonModelType, selection: SelectionSet, field: MutationField) -> JSONValue {
        guard let object = value.objectValue else { return value }
        var out: Item = [:]
        for selected in SelectionFields.included(in: selection, fragments: field.fragments, variables: field.variables) {
            let key = selected.alias?.value ?? selected.name.value
            let name = selected.name.value
            if name == "__typename" {
                out[key] = .string(type.name)
            } else if let nested = type.fields.first(where: { $0.name == name }) {
                out[key] = project(object[name] ?? .null, of: nested, selection: selected.selectionSet, field: field)
            } else {
                out[key] = .null
            }
        }
        return .object(out)
    }
}
