import DeltaSyncCore
import DeltaSyncSchema
import GraphQL

/// Per-request state resolvers share with the executor: the request's ``ResponsePlan``, the
/// explain log, the budget, and the root values projection completed (``ProjectedRoots``).
final class RequestScope: Sendable {
    let plan: ResponsePlan
    let plans: QueryPlanLog
    /// What the request has left to spend on resolvers and items.
    let budget: ResolverBudget
    /// The root values projection completed, for the response.
    let projected = ProjectedRoots()
    /// Who is asking; `nil` when the server has no authorization rules.
    let caller: Caller?
    /// The schema's projection, asking the caller about every field.
    let projection: ItemProjection
    /// Who asks and the headers they sent, for `@function` events.
    let functionRequest: FunctionPipeline.Request

    /// The outcome of a root mutation field ``MutationShortcut`` already ran, by response key:
    /// its resolver hands it to the executor instead of running the mutation again.
    private let earlierResults: [String: Result<ItemObject, any Error>]

    init(
        plan: ResponsePlan, explain: Bool, budget: ResolverBudget, caller: Caller? = nil, projection: ItemProjection,
        earlierResults: [String: Result<ItemObject, any Error>] = [:], functionRequest: FunctionPipeline.Request = .init()
    ) {
        self.functionRequest = functionRequest
        self.plan = plan
        self.caller = caller
        self.projection = projection.authorized(by: caller)
        plans = QueryPlanLog(explain: explain)
        self.budget = budget
        self.earlierResults = earlierResults
    }

    /// Who decides field reads for this request: the caller, else the server-wide rule.
    var fieldAuthorization: (any FieldAuthorization)? { projection.authorization }

    /// What the caller may do through a root field.
    func access(_ model: ModelSchema, _ operation: ModelOperation, _ info: GraphQLResolveInfo) -> RootAccess {
        let parent = info.parentType.name
        return caller?.access(model, operation, field: info.fieldName, parentType: parent)
            ?? .open(field: info.fieldName, parentType: parent)
    }

    /// The response key of a root field; `nil` for a nested one.
    private static func rootKey(_ info: GraphQLResolveInfo) -> String? {
        guard info.path.elements.count == 1, case .key(let key) = info.path.elements[0].indexPathValue else { return nil }
        return key
    }

    /// The plan's decision for the root field at `info`'s path; `nil` for a nested field or a
    /// root field the executor completes.
    func root(_ info: GraphQLResolveInfo) -> (key: String, root: ResponsePlan.Root)? {
        guard let key = Self.rootKey(info), let root = plan.roots[key] else { return nil }
        return (key, root)
    }

    /// What the root field at `info`'s path returned or threw when ``MutationShortcut`` ran it.
    func earlierResult(_ info: GraphQLResolveInfo) -> Result<ItemObject, any Error>? {
        Self.rootKey(info).flatMap { earlierResults[$0] }
    }
}
