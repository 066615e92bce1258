import DeltaSyncCore
import DeltaSyncSchema
import GraphQL
import Logging

/// What projection knows of a schema, the same for every caller: the plans of selections on
/// its models (``ItemPlan``) and how related items are read (``RelationReader``). Built once
/// with the executable schema; ``projection(for:)`` gives the ``ItemProjection`` one caller
/// reads with.
struct ItemPlanner: Sendable {
    let schema: AmplifySchema
    /// Reads the items `@belongsTo` and `@hasOne` members name.
    let relations: any RelationReader
    /// Where a failed relation read is logged in full; the response shows it redacted.
    let logger: Logger
    /// `Type.field` of the fields functions resolve: a response selecting one is the
    /// executor's to complete.
    private let functionFields: Set<String>

    init(schema: AmplifySchema, relations: any RelationReader, logger: Logger) {
        self.schema = schema
        self.relations = relations
        self.logger = logger
        functionFields = Set(schema.functionFields.map { "\($0.typeName).\($0.fieldName)" })
    }

    /// The plan of `selection` on `model`'s items; `nil` where the executor must complete them.
    func plan(
        _ model: ModelSchema, selection: [SelectionSet], fragments: [String: FragmentDefinition],
        purpose: ItemPlan.Purpose = .response
    ) -> ItemPlan? {
        ItemPlan(
            model, selection: selection, fragments: fragments, purpose: purpose, models: self.model,
            functionFields: functionFields)
    }

    /// The model of a relation's related type: the parser makes relations to the schema's
    /// models only, so a missing one is a wiring mistake, as in ``ResolverEnvironment``.
    func model(_ name: String) -> ModelSchema {
        guard let model = schema.model(named: name) else {
            preconditionFailure("projection planned for unknown model \(name)")
        }
        return model
    }

    /// The projection `caller` reads with: every field, related object and connection it
    /// writes is one `caller` may read.
    func projection(for caller: Caller) -> ItemProjection {
        ItemProjection(planner: self, caller: caller)
    }
}
