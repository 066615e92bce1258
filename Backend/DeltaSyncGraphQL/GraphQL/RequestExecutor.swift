import DeltaSyncAuth
import DeltaSyncCore
import GraphQL
import Logging
import OrderedCollections

/// Runs one GraphQL request against the executable schema and shapes the answer as AppSync
/// does (``ErrorShape``).
///
/// The request's ``ResponsePlan`` says which root values projection completes; the executor
/// runs every resolver once and completes the rest; projected pages are spliced into the
/// response bytes.
package struct RequestExecutor: Sendable {
    package let schema: ExecutableSchema
    /// Where mutations' results go for subscribers.
    let events: (any EventFanOut)?
    /// Where unexpected errors go in full; the client gets an `InternalFailure` without them.
    package let logger: Logger
    /// Checked before a document is parsed and before it is validated.
    var limits = DocumentLimits()
    /// Bounds on running a request: resolvers, items, response size, time.
    var executionLimits = ExecutionLimits()
    /// Clients send the same few operations over and over; parsing, validating and planning
    /// each once roughly halves the cost of a small mutation.
    let documents = ValidatedDocumentCache(capacity: 512)

    package init(
        schema: ExecutableSchema, events: (any EventFanOut)?, logger: Logger, limits: DocumentLimits = DocumentLimits(),
        executionLimits: ExecutionLimits = ExecutionLimits()
    ) {
        self.schema = schema
        self.events = events
        self.logger = logger
        self.limits = limits
        self.executionLimits = executionLimits
    }

    /// - Parameter caller: who the request runs for; every resolver asks it.
    /// - Parameter explain: record how sync queries read their items and return it in
    ///   `extensions.deltasync.plans`.
    package func execute(_ request: OperationRequest, as caller: Caller, explain: Bool = false) async -> [UInt8] {
        await answer(request, as: caller, explain: explain).bytes
    }

    /// A response's bytes and the `errorType`s of its errors, for the request log and metrics
    /// without reading the bytes again.
    package struct Answer: Sendable {
        package var bytes: [UInt8]
        /// Empty when the response has no errors; `error` for an error without a type.
        package var errorTypes: [String]
        /// The operation that ran; `nil` when the document did not parse or validate.
        package var operation: OperationSummary?
        /// The steps project resolvers ran, when the request was traced.
        package var steps: [ResolverStepTrace] = []

        /// Whether the store could not be reached: the HTTP route answers 503 with
        /// `Retry-After`, which DataStore clients retry (an error in a 200 drops the mutation).
        package var storeUnavailable: Bool { errorTypes.contains(AppSyncErrorType.serviceUnavailable.rawValue) }
    }

    /// ``execute(_:as:explain:)`` with the error types of the response.
    ///
    /// - Parameter traceSteps: record the steps of project resolvers (``Answer/steps``), for
    ///   the request log.
    package func answer(_ request: OperationRequest, as caller: Caller, explain: Bool = false, traceSteps: Bool = false) async -> Answer {
        let limits = executionLimits
        let answer = await Deadline.race(after: limits.timeout) {
            let (body, splices, operation, steps) = await respond(request, explain: explain, caller: caller, traceSteps: traceSteps)
            return Answer(
                bytes: ResponseJSON.bytes(body, splices: splices), errorTypes: Self.errorTypes(of: body), operation: operation, steps: steps)
        }
        guard let answer else {
            // AppSync's words; the work goes on in the background until its next budget check.
            return Answer(
                bytes: Self.errorBytes("Execution timed out.", errorType: .executionTimeout),
                errorTypes: [AppSyncErrorType.executionTimeout.rawValue], operation: nil)
        }
        guard answer.bytes.count <= limits.maxResponseBytes else {
            return Answer(
                bytes: Self.errorBytes(
                    "The response is \(answer.bytes.count) bytes, more than the \(limits.maxResponseBytes) allowed; select fewer items or fields.",
                    errorType: .limitExceeded),
                errorTypes: [AppSyncErrorType.limitExceeded.rawValue], operation: answer.operation)
        }
        return answer
    }

    /// The distinct `errorType`s of a response body's `errors`, in order.
    private static func errorTypes(of body: Map) -> [String] {
        guard case .dictionary(let members) = body, case .array(let errors)? = members["errors"] else { return [] }
        var types: [String] = []
        for error in errors {
            var type = "error"
            if case .dictionary(let fields) = error, case .string(let named)? = fields["errorType"] { type = named }
            if !types.contains(type) { types.append(type) }
        }
        return types
    }

    /// A response of one error and no data.
    private static func errorBytes(_ message: String, errorType: AppSyncErrorType) -> [UInt8] {
        ResponseJSON.bytes(body(data: nil, errors: [ErrorShape.plain(message, errorType: errorType)]), splices: [])
    }

    /// The subscription a realtime `start` asks for, planned from its parsed and validated
    /// document (cached as every document is), or the errors in AppSync's shape.
    /// Runs the project's resolver of `plan`'s subscription field for `caller`, if it has one
    /// (``SubscriptionResolvers``): what it raises refuses the start.
    ///
    /// - Returns: the filter its `$extensions.setSubscriptionFilter` set, or `nil`.
    package func startResolver(of plan: SubscriptionPlan, caller: Caller) async throws(AppSyncError) -> QueryPredicate? {
        guard !schema.subscriptionResolvers.isEmpty else { return nil }
        return try await schema.subscriptionResolvers.start(field: plan.field, arguments: plan.arguments, caller: caller)
    }

    package func subscription(_ request: OperationRequest) -> Result<SubscriptionPlan, ResponseErrors> {
        prepare(request.query).flatMap { prepared in
            Result { () throws(AppSyncError) in try SubscriptionPlan(request, document: prepared.document, schema: schema) }
                .mapError(ResponseErrors.init)
        }
    }

    /// The parsed and validated document of a query with the plans of its operations, or the
    /// errors in AppSync's shape.
    func prepare(_ query: String) -> Result<PreparedDocument, ResponseErrors> {
        if let cached = documents[query] { return .success(cached) }
        if let refusal = limits.refusal(text: query) { return .failure(Self.refused(refusal)) }
        let document: Document
        do {
            document = try parse(source: Source(body: query, name: "GraphQL request"))
        } catch let error as GraphQLError {
            return .failure(ResponseErrors(errors: [ErrorShape.syntax(error)]))
        } catch {
            return .failure(ResponseErrors(errors: [ErrorShape.plain("Invalid Syntax : \(error)")]))
        }
        if let refusal = limits.refusal(document: document) { return .failure(Self.refused(refusal)) }
        let validationErrors = validate(schema: schema.graphQL, ast: document)
        guard validationErrors.isEmpty else {
            return .failure(ResponseErrors(errors: validationErrors.map(ErrorShape.validation)))
        }
        let prepared = PreparedDocument(document: document, plans: ResponsePlan.plans(for: document, schema: schema))
        documents[query] = prepared
        return .success(prepared)
    }

    /// A document over ``DocumentLimits``, answered as a validation error.
    private static func refused(_ reason: String) -> ResponseErrors {
        ResponseErrors(errors: [ErrorShape.plain("Validation error: \(reason)")])
    }

    private func respond(
        _ request: OperationRequest, explain: Bool, caller: Caller, traceSteps: Bool
    ) async -> (Map, [ResponseJSON.Splice], OperationSummary?, [ResolverStepTrace]) {
        let prepared: PreparedDocument
        switch prepare(request.query) {
        case .success(let found): prepared = found
        case .failure(let failure): return (Self.body(data: nil, errors: failure.errors), [], nil, [])
        }
        let plan = ResponsePlan.select(prepared.plans, operationName: request.operationName)
        if let refusal = plan.filterVariables?.refusal(in: request.variables, limits: schema.filterLimits) {
            return (Self.body(data: nil, errors: [ErrorShape.plain(refusal)]), [], plan.summary, [])
        }
        if plan.operationType == .subscription {
            let refusal = ErrorShape.plain(
                "Subscriptions are not supported over HTTP: connect to the realtime WebSocket endpoint.",
                errorType: .unsupportedOperation)
            return (Self.body(data: nil, errors: [refusal]), [], plan.summary, [])
        }
        do {
            var earlierResults: [String: Result<ModelObject, any Error>] = [:]
            if let shortcut = plan.mutation, let outcome = await shortcut.run(variables: request.variables, caller: caller) {
                switch outcome {
                case .success(let result):
                    publishEvents(
                        of: plan, data: .dictionary([shortcut.responseKey: result.event]),
                        written: result.written.map { [shortcut.responseKey: $0] } ?? [:], fragments: prepared.fragments, request: request)
                    return (Self.body(data: .dictionary([shortcut.responseKey: result.response]), errors: []), [], plan.summary, [])
                case .failure(let failure):
                    earlierResults[shortcut.responseKey] = failure.outcome
                }
            }
            let scope = RequestScope(
                plan: plan, explain: explain, budget: ResolverBudget(executionLimits), caller: caller,
                projection: schema.planner.projection(for: caller), earlierResults: earlierResults,
                functionRequest: ResolverRequest(caller: caller.identity, sourceIP: request.sourceIP, headers: request.headers),
                tracesSteps: traceSteps)
            let result = try await run(request, document: prepared.document, scope: scope)
            var errors = (result.errors + scope.appendedErrors).map { ErrorShape.execution($0, logger: logger) }
            let (data, splices) = await scope.projected.complete(result.data, errors: &errors, projection: scope.projection)
            if plan.operationType == .mutation {
                publishEvents(of: plan, data: scope.eventData(data), written: scope.writtenMetadata, fragments: prepared.fragments, request: request)
            }
            return (Self.body(data: data, errors: errors, scope: scope), splices, plan.summary, scope.recordedSteps)
        } catch let error as GraphQLError {
            return (Self.body(data: nil, errors: [ErrorShape.execution(error, logger: logger)]), [], plan.summary, [])
        } catch {
            let shown = AppSyncError.redacting(error, at: request.operationName ?? "the request", logger: logger)
            return (Self.body(data: nil, errors: [ErrorShape.plain(shown)]), [], plan.summary, [])
        }
    }

    /// Hands subscribers the events of a mutation's results.
    private func publishEvents(
        of plan: ResponsePlan, data: Map?, written: [String: Item], fragments: [String: FragmentDefinition], request: OperationRequest
    ) {
        guard let events, let operation = plan.operation else { return }
        for event in MutationEvent.events(
            of: operation, data: data, written: written, fragments: fragments, variables: request.variables,
            schema: schema.planner.schema, mutationType: schema.graphQL.mutationType,
            wanted: events.hasSubscribers(for:))
        {
            events.publish(event)
        }
    }

    private func run(_ request: OperationRequest, document: Document, scope: RequestScope) async throws -> GraphQLResult {
        try await GraphQL.execute(
            schema: schema.graphQL,
            documentAST: document,
            rootValue: (),
            context: scope,
            variableValues: request.variables.mapValues(\.map),
            operationName: request.operationName
        )
    }

    /// `{"data": ..., "errors": [...], "extensions": ...}`: `errors` only when there are some.
    static func body(data: Map?, errors: [Map], scope: RequestScope? = nil) -> Map {
        var body = OrderedDictionary<String, Map>()
        body["data"] = data ?? .null
        if !errors.isEmpty { body["errors"] = .array(errors) }
        if let scope, scope.plans.explain {
            body["extensions"] = .dictionary(["deltasync": .dictionary(["plans": .array(scope.plans.recorded.map(\.map))])])
        }
        return .dictionary(body)
    }
}
