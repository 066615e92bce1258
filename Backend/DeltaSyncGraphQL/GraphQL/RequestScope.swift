import DeltaSyncCore
import DeltaSyncSchema
import GraphQL
import NIOConcurrencyHelpers

/// Per-request state resolvers share with the executor: the request's ``ResponsePlan``, the
/// explain log, the budget, and the root values projection completed (``ProjectedRoots``).
final class RequestScope: Sendable {
    let plan: ResponsePlan
    let plans: QueryPlanLog
    /// What the request has left to spend on resolvers and items.
    let budget: ResolverBudget
    /// The root values projection completed, for the response.
    let projected = ProjectedRoots()
    /// Who is asking.
    let caller: Caller
    /// The related items relation fields read by key, each once; `nil` outside queries.
    let relatedReads: RelatedReads?
    /// The schema's projection, asking the caller about every field and relation.
    let projection: ItemProjection
    /// Who asks and the headers they sent, for resolvers' `$ctx.identity` and `$ctx.request`.
    let functionRequest: ResolverRequest

    /// Plans of relation connections' selections, by the field's place without list indices
    /// (every parent in a list shares one); `nil` where the executor completes them.
    private let nestedPages = NIOLockedValueBox<[String: ResponsePlan.PagePlan?]>([:])

    /// Mutation results the caller may not read (``Caller/mayReadResult(of:_:model:)``),
    /// completed for their events only, by response key.
    private let withheld = NIOLockedValueBox<[String: Map]>([:])
    /// The sync metadata of root mutations of an API without conflict detection, by response
    /// key: what their events carry for subscribers of a versioned API on the same store.
    private let written = NIOLockedValueBox<[String: Item]>([:])

    /// Fields' `locations` by where their nodes start in the document (``located(_:_:)``).
    private let locations = NIOLockedValueBox<[[Int]: Map]>([:])

    /// Errors resolvers appended (`$util.appendError`) beside the values of their fields.
    private let appended = NIOLockedValueBox<[GraphQLError]>([])

    /// Whether project resolvers record their steps (``ResolverStepTrace``) for the request log.
    let tracesSteps: Bool
    private let steps = NIOLockedValueBox<[ResolverStepTrace]>([])

    /// The outcome of a root mutation field ``MutationShortcut`` already ran, by response key:
    /// its resolver hands it to the executor instead of running the mutation again.
    private let earlierResults: [String: Result<ModelObject, any Error>]

    init(
        plan: ResponsePlan, explain: Bool, budget: ResolverBudget, caller: Caller, projection: ItemProjection,
        earlierResults: [String: Result<ModelObject, any Error>] = [:], functionRequest: ResolverRequest = .init(),
        tracesSteps: Bool = false
    ) {
        self.functionRequest = functionRequest
        self.tracesSteps = tracesSteps
        self.plan = plan
        self.caller = caller
        relatedReads = plan.operationType == .query ? RelatedReads() : nil
        var projection = projection
        projection.reads = relatedReads
        self.projection = projection
        plans = QueryPlanLog(explain: explain)
        self.budget = budget
        self.earlierResults = earlierResults
    }

    /// The request's scope from a resolver's `context`: the one way every resolver gets at
    /// the caller. A context without one (a resolver run outside ``RequestExecutor``) is an
    /// internal error, never a request without rules.
    static func of(_ context: Any) throws(AppSyncError) -> RequestScope {
        guard let scope = context as? RequestScope else {
            throw AppSyncError(.internalFailure, "A resolver ran without its request's scope, so its caller is unknown.")
        }
        return scope
    }

    /// What the caller may do through a root field.
    func access(_ model: ModelSchema, _ operation: ModelOperation, _ info: GraphQLResolveInfo) -> RootAccess {
        caller.access(model, operation, field: info.fieldName, parentType: info.parentType.name)
    }

    /// How the items of the relation connection at `info` are written: by projection, as a
    /// root page's (``ProjectedRoots/page(at:plan:items:)``), in queries whose selection of it
    /// projection can plan; `nil` where the executor completes them. Mutations keep the
    /// executor: their `data` is also their events' data, which must hold the items.
    ///
    /// Besides speed, this keeps a list item that is null (a non-null field of it without a
    /// value, or refused) out of the GraphQL library, which cannot write a null list element.
    func nestedPage(_ info: GraphQLResolveInfo, model: ModelSchema) -> ResponsePlan.PagePlan? {
        guard plan.operationType == .query, info.fieldASTs.count == 1, let field = info.fieldASTs.first, field.directives.isEmpty,
            let selection = field.selectionSet
        else { return nil }
        let place = info.path.elements.compactMap { element -> String? in
            if case .key(let key) = element.indexPathValue { return key }
            return nil
        }.joined(separator: ".")
        if let planned = nestedPages.withLockedValue({ $0[place] }) { return planned }
        let planned = ResponsePlan.page(model, selection: selection, fragments: info.fragments, planner: projection.planner)
        nestedPages.withLockedValue { $0[place] = .some(planned) }
        return planned
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

    /// Keeps `item`, the result of the root mutation at `info` that the caller may not read,
    /// for its event alone: completed as the server would, along the mutation's selection.
    func withhold(_ item: Item, model: ModelSchema, info: GraphQLResolveInfo) async {
        guard let key = Self.rootKey(info) else { return }
        let event = await projection.planner.projection(for: caller.server).errorData(item, model: model, field: MutationField(info))
        withheld.withLockedValue { $0[key] = event.map }
    }

    /// The executor's `data` as subscribers' events are made from it: withheld results in
    /// their place.
    func eventData(_ data: Map?) -> Map? {
        let withheld = withheld.withLockedValue { $0 }
        guard !withheld.isEmpty, case .dictionary(var results)? = data else { return data }
        for (key, value) in withheld { results[key] = value }
        return .dictionary(results)
    }

    /// Keeps the sync metadata of the root mutation at `info` for its event
    /// (``MutationEvent/events(of:data:written:fragments:variables:schema:mutationType:wanted:)``).
    func keepWritten(_ result: ModelObject, info: GraphQLResolveInfo) {
        guard let key = Self.rootKey(info) else { return }
        let item = result.written ?? result.item
        let metadata = item.filter { MutationEvent.metadataFields.contains($0.key) }
        written.withLockedValue { $0[key] = metadata }
    }

    /// Reports `errors` for the field at `info` beside its value, which the field keeps.
    func append(_ errors: [AppSyncError], info: GraphQLResolveInfo) {
        let errors = errors.map { located($0, info) }
        appended.withLockedValue { $0 += errors }
    }

    /// `error` of the field at `info` as the library keeps it, placed in the document once
    /// for every error of the same field (``LocatedFieldError``).
    func located(_ error: AppSyncError, _ info: GraphQLResolveInfo) -> GraphQLError {
        let starts = info.fieldASTs.compactMap { $0.loc?.start }
        let places: Map
        if let placed = locations.withLockedValue({ $0[starts] }) {
            places = placed
        } else {
            // The library's own placing, once a field: the same lines and columns as before.
            places = ErrorShape.locations(GraphQLError(message: error.message, nodes: info.fieldASTs))
            locations.withLockedValue { $0[starts] = places }
        }
        return GraphQLError(
            message: error.message, path: info.path, originalError: LocatedFieldError(error: error, locations: places))
    }

    /// Keeps the steps a project resolver ran, for the request log.
    func record(_ trace: [ResolverStepTrace]?) {
        guard let trace, !trace.isEmpty else { return }
        steps.withLockedValue { $0 += trace }
    }

    /// What ``record(_:)`` kept, in the order fields finished.
    var recordedSteps: [ResolverStepTrace] { steps.withLockedValue { $0 } }

    /// What ``append(_:info:)`` collected, for the response's `errors`.
    var appendedErrors: [GraphQLError] { appended.withLockedValue { $0 } }

    /// What ``keepWritten(_:info:)`` kept.
    var writtenMetadata: [String: Item] { written.withLockedValue { $0 } }

    /// What the root field at `info`'s path returned or threw when ``MutationShortcut`` ran it.
    func earlierResult(_ info: GraphQLResolveInfo) -> Result<ModelObject, any Error>? {
        Self.rootKey(info).flatMap { earlierResults[$0] }
    }
}
