import DeltaSyncSchema

/// A slot of the pipeline Amplify's transformer (v2) generates for a model's field: the places
/// where a project's `Type.field.slot.N.req.vtl` files run, around the generated data step.
///
/// ```swift
/// Slot.order(for: .mutation)   // (before: [.init, .preAuth, .auth, .postAuth, .validate, .preUpdate], after: [.postUpdate, .finish])
/// ```
public enum Slot: String, Sendable, CaseIterable {
    case `init`, preAuth, auth, postAuth, preDataLoad, postDataLoad, validate, preUpdate, postUpdate, finish, preSubscribe

    /// What kind of generated field a slot belongs to.
    public enum FieldKind: Sendable {
        /// `get`, `list`, `sync` and `@index` queries.
        case query
        /// `create`, `update` and `delete` mutations.
        case mutation
        /// `onCreate`, `onUpdate`, `onDelete` subscriptions.
        case subscription
    }

    /// The slots before and after the data step, in the order they run (Amplify's
    /// `ResolverManager`; the Gen 1 CLI reads no `validate` files, Gen 2 does, and so does
    /// DeltaSync).
    public static func order(for kind: FieldKind) -> (before: [Slot], after: [Slot]) {
        switch kind {
        case .query: return ([.`init`, .preAuth, .auth, .postAuth, .preDataLoad], [.postDataLoad, .finish])
        case .mutation: return ([.`init`, .preAuth, .auth, .postAuth, .validate, .preUpdate], [.postUpdate, .finish])
        case .subscription: return ([.`init`, .preAuth, .auth, .postAuth, .preSubscribe], [])
        }
    }
}

extension Slot.FieldKind {
    /// The generated root fields of `schema`'s models (`"Query.listTodos"`) and which slots
    /// each has: where slot and override files can attach.
    package static func generatedFields(of schema: AmplifySchema) -> [String: Slot.FieldKind] {
        var kinds: [String: Slot.FieldKind] = [:]
        for (coordinate, field) in GeneratedField.all(of: schema) { kinds[coordinate.description] = field.kind }
        return kinds
    }
}
