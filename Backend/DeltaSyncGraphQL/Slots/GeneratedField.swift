import DeltaSyncSchema

/// A field DeltaSync generates for a model, as a place slots and overrides attach to: which
/// model, what its data step does, and which slots its pipeline has.
struct GeneratedField: Sendable {
    enum Step: Sendable {
        case get, list, sync, create, update, delete, subscribe
        case index(Index)
    }

    let model: ModelSchema
    let step: Step

    /// Which slots the field's pipeline has.
    var kind: Slot.FieldKind {
        switch step {
        case .get, .list, .sync, .index: return .query
        case .create, .update, .delete: return .mutation
        case .subscribe: return .subscription
        }
    }

    /// The operation the caller's `@auth` rules are asked about.
    var operation: ModelOperation {
        switch step {
        case .get: return .get
        case .list, .index: return .list
        case .sync: return .sync
        case .create: return .create
        case .update: return .update
        case .delete: return .delete
        case .subscribe: return .listen
        }
    }

    /// Every generated root field of `schema`'s models.
    static func all(of schema: AmplifySchema) -> [FieldCoordinate: GeneratedField] {
        var fields: [FieldCoordinate: GeneratedField] = [:]
        for model in schema.models {
            let ops = model.operations
            let named: [(String, String?, Step)] = [
                ("Query", ops.get, .get), ("Query", ops.list, .list), ("Query", ops.sync, .sync),
                ("Mutation", ops.create, .create), ("Mutation", ops.update, .update), ("Mutation", ops.delete, .delete),
                ("Subscription", ops.onCreate, .subscribe), ("Subscription", ops.onUpdate, .subscribe),
                ("Subscription", ops.onDelete, .subscribe),
            ] + model.indexes.map { ("Query", $0.queryField, .index($0)) }
            for case (let type, let field?, let step) in named {
                fields[FieldCoordinate(type: type, field: field)] = GeneratedField(model: model, step: step)
            }
        }
        return fields
    }
}
