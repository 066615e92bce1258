import DeltaSyncCore
import GraphQL
import Logging
import OrderedCollections

/// Runs one GraphQL request against the executable schema and shapes the answer as AppSync
/// does: `data` plus `errors[]` whose `errorType`, `errorInfo` and `data` sit at the top level
/// of each error, not under `extensions`.
struct RequestExecutor: Sendable {
    let schema: ExecutableSchema
    /// Where mutations' results go for subscribers.
    let events: (any EventFanOut)?
    /// Where unexpected errors go in full; the client gets an `InternalFailure` without them.
    let logger: Logger
    /// Checked before a document is parsed and before it is validated.
    var limits = DocumentLimits()
    /// Bounds on running a request: resolvers, items, response size, time.
    var executionLimits = ExecutionLimits()
    /// Clients send the same few operations over and over; parsing and validating each once
    /// roughly halves the cost of a small mutation.
    let documents = ValidatedDocumentCache(capacity: 512)

    /// - Parameter explain: record how sync queries read their items and return it in
    ///   `extensions.deltasync.plans`.
    func execute(_ request: GraphQLRequest, explain: Bool = false) async -> [UInt8] {
        let limits = executionLimits
        let answer = await Deadline.race(after: limits.timeout) {
            let (body, splices) = await respond(request, explain: explain)
            return ResponseJSON.bytes(body, splices: splices)
        }
        guard let bytes = answer else {
            // AppSync's words; the work goes on in the background until its next budget check.
            return Self.errorBytes("Execution timed out.", errorType: .executionTimeout)
        }
        guard bytes.count <= limits.maxResponseBytes else {
            return Self.errorBytes(
                "The response is \(bytes.count) bytes, more than the \(limits.maxResponseBytes) allowed; select fewer items or fields.",
                errorType: .limitExceeded)
        }
        return bytes
    }

    /// A response of one error and no data.
    private static func errorBytes(_ message: String, errorType: AppSyncErrorType) -> [UInt8] {
        ResponseJSON.bytes(body(data: nil, errors: [plainError(message, errorType: errorType)]), splices: [])
    }

    /// The parsed and validated document of a query, or the errors in AppSync's shape.
    func document(_ query: String) -> Result<Document, ResponseErrors> {
        if let cached = documents[query] { return .success(cached) }
        if let refusal = limits.refusal(text: query) { return .failure(Self.refused(refusal)) }
        let document: Document
        do {
            document = try parse(source: Source(body: query, name: "GraphQL request"))
        } catch let error as GraphQLError {
            return .failure(ResponseErrors(errors: [Self.syntaxError(error)]))
        } catch {
            return .failure(ResponseErrors(errors: [Self.plainError("Invalid Syntax : \(error)")]))
        }
        if let refusal = limits.refusal(document: document) { return .failure(Self.refused(refusal)) }
        let validationErrors = validate(schema: schema.graphQL, ast: document)
        guard validationErrors.isEmpty else {
            return .failure(ResponseErrors(errors: validationErrors.map(Self.validationError)))
        }
        documents[query] = document
        return .success(document)
    }

    /// A document over ``DocumentLimits``, answered as a validation error.
    private static func refused(_ reason: String) -> ResponseErrors {
        ResponseErrors(errors: [plainError("Validation error: \(reason)")])
    }

    /// Errors already in AppSync's shape, for the response's `errors` (or a realtime `error`).
    struct ResponseErrors: Error, @unchecked Sendable {
        // Maps of strings and numbers only.
        let errors: [Map]
    }

    private func respond(_ request: GraphQLRequest, explain: Bool) async -> (Map, [ResponseJSON.Splice]) {
        let document: Document
        switch self.document(request.query) {
        case .success(let parsed): document = parsed
        case .failure(let failure): return (Self.body(data: nil, errors: failure.errors), [])
        }
        let operations = document.definitions.compactMap { $0 as? OperationDefinition }
        let operation = request.operationName.flatMap { name in operations.first { $0.name?.value == name } }
            ?? (operations.count == 1 ? operations.first : nil)
        if operation?.operation == .subscription {
            return (Self.body(
                data: nil,
                errors: [
                    Self.plainError(
                        "Subscriptions are not supported over HTTP: connect to the realtime WebSocket endpoint.",
                        errorType: .unsupportedOperation)
                ]), [])
        }
        do {
            if operation?.operation == .query,
                let answered = try await executeProjectingItems(request, document: document, explain: explain)
            {
                return answered
            }
            var earlierResults: [String: Result<ItemObject, any Error>] = [:]
            if let operation,
                let shortcut = MutationShortcut(
                    operation, fragments: document.fragmentsByName, variables: request.variables, schema: schema)
            {
                switch await shortcut.run() {
                case .success(let result):
                    let data = Map.dictionary([shortcut.responseKey: result])
                    publishEvents(of: operation, data: data, document: document, request: request)
                    return (Self.body(data: data, errors: []), [])
                case .failure(let failure):
                    earlierResults[shortcut.responseKey] = failure.outcome
                }
            }
            let scope = RequestScope(
                explain: explain, defersItems: false, budget: ResolverBudget(executionLimits), earlierResults: earlierResults)
            let result = try await run(request, document: document, scope: scope)
            let data = Self.data(result.data, completing: scope.completedResults)
            if let operation, operation.operation == .mutation {
                publishEvents(of: operation, data: data, document: document, request: request)
            }
            return (Self.body(data: data, errors: result.errors.map(executionError), scope: scope), [])
        } catch let error as GraphQLError {
            return (Self.body(data: nil, errors: [executionError(error)]), [])
        } catch {
            let shown = AppSyncError.redacting(error, at: request.operationName ?? "the request", logger: logger)
            return (Self.body(data: nil, errors: [Self.plainError(shown.message, errorType: shown.errorType)]), [])
        }
    }

    /// Hands subscribers the events of a mutation's results.
    private func publishEvents(of operation: OperationDefinition, data: Map?, document: Document, request: GraphQLRequest) {
        guard let events else { return }
        for event in MutationEvent.events(
            of: operation, data: data, fragments: document.fragmentsByName, variables: request.variables,
            schema: schema.projection.schema, mutationType: schema.graphQL.mutationType,
            wanted: events.hasSubscribers(for:))
        {
            events.publish(event)
        }
    }

    /// The executor's `data` with the results resolvers completed themselves in place of the
    /// `null` the executor saw.
    private static func data(_ data: Map?, completing results: [String: Map]) -> Map? {
        guard !results.isEmpty, case .dictionary(var fields)? = data else { return data }
        for (key, result) in results where fields[key] != nil { fields[key] = result }
        return .dictionary(fields)
    }

    private func run(_ request: GraphQLRequest, document: Document, scope: RequestScope) async throws -> GraphQLResult {
        try await GraphQL.execute(
            schema: schema.graphQL,
            documentAST: document,
            rootValue: (),
            context: scope,
            variableValues: request.variables.mapValues(\.map),
            operationName: request.operationName
        )
    }

    /// Executes a query with root connection items set aside, then projects them into the
    /// result; `nil` when an error occurred or a page could not be projected, in which case the
    /// caller executes the request the normal way.
    private func executeProjectingItems(_ request: GraphQLRequest, document: Document, explain: Bool) async throws
        -> (Map, [ResponseJSON.Splice])?
    {
        let scope = RequestScope(explain: explain, defersItems: true, budget: ResolverBudget(executionLimits))
        let result = try await run(request, document: document, scope: scope)
        let pages = scope.deferred
        guard result.errors.isEmpty else { return nil }
        let data = Self.data(result.data, completing: scope.completedResults)
        guard !pages.isEmpty else { return (Self.body(data: data, errors: [], scope: scope), []) }
        var splices: [ResponseJSON.Splice] = []
        var errors: [Map] = []
        for page in pages {
            let array: ProjectedArray
            switch page.content {
            case .projected(let written):
                array = written
            case .items(let items):
                guard let projected = await schema.projection.project(items, of: page.model, onto: page.target) else {
                    return nil
                }
                array = projected
            }
            let path = [page.target.rootKey, page.target.itemsKey]
            splices.append(ResponseJSON.Splice(path: ["data"] + path, json: array.bytes))
            errors += array.nulledItems.map { Self.nullInNonNullError($0, model: array.model, path: path) }
        }
        return (Self.body(data: data, errors: errors, scope: scope), splices)
    }

    // MARK: - Error shapes

    /// AppSync's error for a non-null field without a value; the item it belongs to is null.
    static func nullInNonNullError(_ nulled: ProjectedArray.NulledItem, model: String, path: [String]) -> Map {
        let elements: [Map] = path.map(Map.string) + [.int(nulled.index), .string(nulled.key)]
        let slashed = path.joined(separator: "/") + "/\(nulled.index)/\(nulled.key)"
        return .dictionary([
            "path": .array(elements),
            "locations": .null,
            "message": .string("Cannot return null for non-nullable type: '\(nulled.type)' within parent '\(model)' (/\(slashed))"),
        ])
    }

    static func body(data: Map?, errors: [Map], scope: RequestScope? = nil) -> Map {
        var body = OrderedDictionary<String, Map>()
        body["data"] = data ?? .null
        if !errors.isEmpty { body["errors"] = .array(errors) }
        if let scope, scope.plans.explain {
            body["extensions"] = .dictionary(["deltasync": .dictionary(["plans": .array(scope.plans.recorded.map(\.map))])])
        }
        return .dictionary(body)
    }

    static func locations(_ error: GraphQLError) -> Map {
        .array(
            error.locations.map {
                .dictionary(["line": .int($0.line), "column": .int($0.column), "sourceName": .null])
            })
    }

    static func syntaxError(_ error: GraphQLError) -> Map {
        var message = error.message
        if message.hasPrefix("Syntax Error: ") { message = String(message.dropFirst("Syntax Error: ".count)) }
        return .dictionary([
            "path": .null,
            "locations": locations(error),
            "message": .string("Invalid Syntax : \(message)"),
        ])
    }

    /// Validation errors carry no `errorType` on AppSync; the message names the kind of error.
    static func validationError(_ error: GraphQLError) -> Map {
        if let field = ValidationMessage.serverOwnedField(in: error.message) {
            // Setting sync metadata is AppSync's `BadRequest`, whichever layer notices it first.
            return .dictionary([
                "path": .null,
                "data": .null,
                "errorType": .string(AppSyncErrorType.badRequest.rawValue),
                "errorInfo": .null,
                "locations": locations(error),
                "message": .string("The field '\(field)' is managed by the server and cannot be set."),
            ])
        }
        return .dictionary([
            "path": .null,
            "locations": locations(error),
            "message": .string(ValidationMessage.appSyncStyle(error.message)),
        ])
    }

    /// A field's error: an ``AppSyncError`` a resolver threw with its type, message and data;
    /// the library's own errors (a null in a non-null field) as the library words them; any
    /// other error a resolver or the store threw as ``AppSyncErrorType/internalFailure``, its
    /// text only in the log (``AppSyncError/redacting(_:at:logger:)``).
    func executionError(_ error: GraphQLError) -> Map {
        let elements: [Map] = error.path.elements.map { element in
            switch element {
            case .index(let i): return .int(i)
            case .key(let k): return .string(k)
            }
        }
        let path: Map = elements.isEmpty ? .null : .array(elements)
        guard let original = error.originalError else {
            if path == .null {
                // Variable coercion and other pre-execution failures are validation errors.
                return Self.validationError(error)
            }
            return .dictionary([
                "path": path,
                "data": .null,
                "errorType": .null,
                "errorInfo": .null,
                "locations": Self.locations(error),
                "message": .string(error.message),
            ])
        }
        // The library describes a thrown error with `String(describing:)`: a GRDB error's
        // description holds the SQL, its arguments and the SQLite message.
        let location = error.path.elements.map { element in
            switch element {
            case .index(let i): return String(i)
            case .key(let k): return k
            }
        }.joined(separator: ".")
        let shown = AppSyncError.redacting(original, at: location.isEmpty ? "the request" : location, logger: logger)
        return .dictionary([
            "path": path,
            "data": shown.data.map,
            "errorType": .string(shown.errorType.rawValue),
            "errorInfo": shown.errorInfo.map,
            "locations": Self.locations(error),
            "message": .string(shown.message),
        ])
    }

    static func plainError(_ message: String, errorType: AppSyncErrorType? = nil) -> Map {
        var error = OrderedDictionary<String, Map>()
        if let errorType { error["errorType"] = .string(errorType.rawValue) }
        error["message"] = .string(message)
        return .dictionary(error)
    }
}
