import DeltaSyncCore
import GraphQL

/// Every field of a model type asks the request's caller before it is read, for what the
/// executor completes (``ItemProjection`` asks the same caller for what it writes). A denied
/// field throws its error: the executor nulls it, or its parent when it is non-null.
enum FieldReadGuard {
    /// Wraps every field of `type` (a model's), `ownerNames` being its owner fields shown as
    /// the username (``OwnerName``).
    static func install(on type: GraphQLObjectType, ownerNames: Set<String>) throws {
        let typeName = type.name
        try GraphQLLibraryHooks.wrapFields(of: type) { name, resolve in
            let read: GraphQLFieldResolve = resolve ?? { source, _, _, info in
                guard let object = source as? ModelObject else { return nil }
                return ownerNames.contains(info.fieldName)
                    ? OwnerName.shown(object.item[info.fieldName] ?? .null).resolvable : object[info.fieldName]
            }
            return { source, args, context, info in
                if let item = (source as? ModelObject)?.item, let denial = try RequestScope.of(context).caller.denial(of: name, on: typeName, in: item) {
                    throw denial
                }
                return try await read(source, args, context, info)
            }
        }
    }
}
