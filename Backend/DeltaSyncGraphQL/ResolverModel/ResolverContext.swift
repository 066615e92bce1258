import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncVTL

/// AppSync's context of one field's resolution (`$ctx` in templates, `ctx` in functions): what
/// every step of a unit or pipeline resolver reads, and what the steps hand on to each other.
///
/// One value travels through a run: a step that changes ``arguments`` or ``stash`` changes them
/// for every later step, as AppSync's templates share one `Map`; ``previousResult`` is what the
/// step before returned.
///
/// ```swift
/// var context = ResolverContext(field: FieldCoordinate(type: "Query", field: "getPost"), arguments: ["id": "p1"])
/// context.stash["seen"] = true            // every later step sees it
/// context.vtlVariables()["ctx"]           // $ctx for a template
/// ```
struct ResolverContext: Sendable {
    /// The field being resolved.
    let field: FieldCoordinate
    /// `$ctx.arguments` (`$ctx.args`): the field's arguments, changed by steps that `put` into them.
    var arguments: Item
    /// `$ctx.source`: the parent object; `null` on root fields, as Lambda events show it.
    var source: JSONValue = .null
    /// `$ctx.identity`: who asks, shaped by their mode (`null` for an API key).
    var identity: JSONValue = .null
    /// `$ctx.request`: `headers` and `domainName`.
    var request: JSONValue = ["headers": [:], "domainName": .null]
    /// `$ctx.info`: field and parent type names, variables; the selection set is added by
    /// ``selection`` for templates that read it.
    var info: JSONValue = [:]
    /// `$ctx.info.selectionSetList` and `selectionSetGraphQL`, made only for a template whose
    /// text names them: printing the selection costs more than most templates.
    var selection: (@Sendable () -> (list: JSONValue, graphQL: JSONValue))?
    /// `$ctx.stash`: one map for the whole run.
    var stash: Item = [:]
    /// `$ctx.prev.result`: what the previous step returned.
    var previousResult: JSONValue = .null
    /// `$ctx.env`: the API's environment variables.
    var environment: [String: String] = [:]
    /// Errors steps appended (`$util.appendError`), reported with the field's value.
    var appendedErrors: [AppSyncError] = []
    /// What templates get besides `$ctx`: `$util.authType()`, the log, the server's clock.
    var runtime = VTLRuntime()
    /// `$extensions` calls templates made, in order.
    var extensions: [RecordedExtension] = []
    /// The request the field is resolved in, for DeltaSync's generated data steps, which judge
    /// the caller as the generated resolvers do; `nil` in a context made without a request,
    /// where those steps refuse to run.
    var origin: FieldOrigin?
    /// The steps that ran, when the request is traced (``ResolverStepTrace``); `nil` otherwise,
    /// so an untraced run records nothing.
    var trace: [ResolverStepTrace]?
    /// What the running step sent its data source, kept for ``trace``.
    var sentRequest: JSONValue?

    init(field: FieldCoordinate, arguments: Item) {
        self.field = field
        self.arguments = arguments
        info = ["fieldName": .string(field.field), "parentTypeName": .string(field.type), "variables": [:]]
    }

    /// `$ctx` as a template sees it, with `result` and `error` for a response template.
    func contextValue(result: JSONValue? = nil, error: DataSourceFailure? = nil, readsSelection: Bool = false) -> JSONValue {
        var info = self.info
        if readsSelection, let selection, case .object(var fields) = info {
            let made = selection()
            fields["selectionSetList"] = made.list
            fields["selectionSetGraphQL"] = made.graphQL
            info = .object(fields)
        }
        var context: Item = [
            "arguments": .object(arguments),
            "source": source,
            "identity": identity,
            "request": request,
            "info": info,
            "stash": .object(stash),
            "prev": ["result": previousResult],
            "env": .object(environment.mapValues(JSONValue.string)),
        ]
        if let result { context["result"] = result }
        if let error { context["error"] = ["message": .string(error.message), "type": .string(error.type)] }
        return .object(context)
    }

    /// `$util.authType()`'s answer for the caller's mode.
    static func authType(_ mode: AuthMode?) -> String? {
        switch mode {
        case .apiKey: return VTLRuntime.apiKeyAuthorization
        case .userPools: return VTLRuntime.userPoolAuthorization
        case .oidc: return VTLRuntime.openIDConnectAuthorization
        case .iam: return VTLRuntime.iamAuthorization
        case .lambda: return VTLRuntime.lambdaAuthorization
        case nil: return nil
        }
    }
}

/// A field of a type: where a resolver is attached (`Query.getPost`, `Post.comments`).
struct FieldCoordinate: Sendable, Hashable, CustomStringConvertible {
    var type: String
    var field: String

    var description: String { "\(type).\(field)" }
}

/// An `$extensions` call a template made, kept for what the server does with it
/// (`evictFromApiCache` is a no-op here: DeltaSync has no API cache).
struct RecordedExtension: Sendable, Equatable {
    /// `setSubscriptionFilter`, `invalidateSubscriptions`, ...
    var name: String
    var value: JSONValue
}
