import DeltaSyncCore
import GraphQL
import Logging

/// The request a field is resolved in: what DeltaSync's generated data steps judge the caller
/// by (``RequestScope/access(_:_:_:)``) and report into.
struct FieldOrigin: Sendable {
    let scope: RequestScope
    let info: GraphQLResolveInfo
}

/// DeltaSync's generated read or write of a model's field as one step of a pipeline, Amplify's
/// `<Type><Field>DataResolverFn`: what runs between a field's slots. It reads the arguments and
/// the stash as the slots before it left them (``SlotStash``), checks the caller exactly as the
/// generated resolver does, and hands on its value as JSON (`$ctx.prev.result` of the slots
/// after it).
struct GeneratedDataStep: ResolverFunction {
    /// The step's body: the generated resolver, over the arguments the slots left (read
    /// through ``SlotStash/arguments(_:for:)``).
    typealias Body = @Sendable (_ arguments: Item, _ stash: SlotStash, _ origin: FieldOrigin) async throws -> JSONValue

    let name: String
    let body: Body
    let logger: Logger
    /// A subscription's generated step (Amplify's `NONE` function): `null`, no read, no caller.
    var readsNothing = false

    func run(_ context: inout ResolverContext) async throws(AppSyncError) -> JSONValue {
        // A subscription's step reads nothing: it answers null wherever it runs.
        if readsNothing { return .null }
        // Fails closed: without the request there is no caller to judge.
        guard let origin = context.origin else {
            throw AppSyncError(.internalFailure, "\(name) runs only within a request: it checks the caller as the generated resolver does.")
        }
        let stash = SlotStash(context.stash)
        if context.trace != nil { context.sentRequest = ["arguments": .object(context.arguments)] }
        do {
            return try await body(context.arguments, stash, origin)
        } catch {
            throw AppSyncError.redacting(error, at: context.field.description, logger: logger)
        }
    }
}
