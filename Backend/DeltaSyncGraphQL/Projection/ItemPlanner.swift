import DeltaSyncCore
import DeltaSyncSchema
import GraphQL

/// What projection knows of a schema, the same for every caller: the plans of selections on
/// its models (``ItemPlan``) and the resolvers that read related items. Built once with the
/// executable schema; ``projection(for:)`` gives the ``ItemProjection`` one caller reads with.
struct ItemPlanner: Sendable {
    let schema: AmplifySchema
    let queries: QueryResolvers
    /// `Type.field` of the fields functions resolve: a response selecting one is the
    /// executor's to complete.
    private let functionFields: Set<String>

    init(schema: AmplifySchema, queries: QueryResolvers) {
        self.schema = schema
        self.queries = queries
        functionFields = Set(schema.functionFields.map { "\($0.typeName).\($0.fieldName)" })
    }

    /// The plan of `selection` on `model`'s items; `nil` where the executor must complete them.
    func plan(
        _ model: ModelSchema, selection: [SelectionSet], fragments: [String: FragmentDefinition],
        purpose: ItemPlan.Purpose = .response
    ) -> ItemPlan? {
        ItemPlan(
            model, selection: selection, fragments: fragments, purpose: purpose, models: queries.environment.model,
            functionFields: functionFields)
    }

    /// The projection `caller` reads with: every field, related object and connection it
    /// writes is one `caller` may read.
    func projection(for caller: Caller) -> ItemProjection {
        ItemProjection(planner: self, caller: caller)
    }
}
