import DeltaSyncCore

/// An `@http` field is a one-step resolver over the field's arguments and the client's headers.
extension HTTPResolver: ResolverFunction {
    var name: String { call.url }

    func run(_ context: inout ResolverContext) async throws(AppSyncError) -> JSONValue {
        let headers = context.request["headers"].objectValue?.compactMapValues(\.stringValue) ?? [:]
        return try await resolve(arguments: .object(context.arguments), headers: headers)
    }
}
