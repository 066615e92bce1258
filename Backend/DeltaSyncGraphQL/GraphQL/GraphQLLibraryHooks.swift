import GraphQL

/// Every place DeltaSync relies on the GraphQL library's behaviour beyond its documented API,
/// in one file. `Package.swift` pins the library to the minor version these were checked
/// against (`.upToNextMinor`), and `GraphQLLibraryHooksTests` fails if one stops holding:
///
/// 1. A schema built from SDL has mutable closures on its types, and the executor reads them
///    at run time: ``replaceScalar(_:parseValue:parseLiteral:serialize:)`` swaps a scalar's
///    parsing, ``attach(_:to:wrap:)`` sets resolvers, ``wrapFields(of:_:)`` wraps them,
///    ``freezeInputFields(_:)`` replaces input types' field thunks.
/// 2. The default field resolver reads a `KeySubscriptable` source by field name: stored items
///    (`ModelObject`) and pages (`PageObject`) are completed without a resolver per field.
/// 3. A nullable root field whose resolver returns `nil` is `null` in `data`, and the rest of
///    the response is completed: projection puts the value it completed in its place.
/// 4. Errors keep what a resolver threw as `originalError`, with the field's `path`; a syntax
///    error's message starts with `Syntax Error GraphQL (line:column) ` (AppSync's follows
///    `Invalid Syntax : `); validation messages are worded as graphql-js words them
///    (``ValidationMessage`` rewords them as AppSync does).
enum GraphQLLibraryHooks {
    /// Replaces how a built scalar type reads and writes values; `nil` keeps the library's.
    static func replaceScalar(
        _ type: GraphQLScalarType,
        parseValue: (@Sendable (Map) throws -> Map)? = nil,
        parseLiteral: (@Sendable (Value) throws -> Map)? = nil,
        serialize: (@Sendable (Any) throws -> Map)? = nil
    ) {
        if let parseValue { type.parseValue = parseValue }
        if let parseLiteral { type.parseLiteral = parseLiteral }
        if let serialize { type.serialize = serialize }
    }

    /// Input types built from SDL re-derive their fields from the AST on every access (the
    /// library caches only output types), which dominated the cost of coercing a mutation's
    /// variables. Their fields never change once built, so compute them once.
    static func freezeInputFields(_ schema: GraphQLSchema) throws {
        for type in schema.typeMap.values {
            guard let input = type as? GraphQLInputObjectType else { continue }
            let fields = try input.fields()
            input.fields = { fields }
        }
    }

    /// Sets resolvers on a built type, during setup, before any execution. Each resolver is
    /// wrapped by `wrap` (the request's budget is spent before anything is read).
    static func attach(
        _ resolvers: [String: GraphQLFieldResolve], to type: GraphQLObjectType,
        wrap: @escaping @Sendable (@escaping GraphQLFieldResolve) -> GraphQLFieldResolve = { $0 }
    ) throws {
        guard !resolvers.isEmpty else { return }
        let fields = try type.fields()
        for (name, field) in fields {
            guard let resolve = resolvers[name] else { continue }
            field.resolve = wrap(resolve)
        }
        type.fields = { fields }
    }

    /// Replaces the resolver of every field of a built type with `wrap`'s, which gets the
    /// field's name and its resolver (`nil` where the library resolves it by default).
    static func wrapFields(
        of type: GraphQLObjectType, _ wrap: (_ name: String, _ resolve: GraphQLFieldResolve?) -> GraphQLFieldResolve
    ) throws {
        let fields = try type.fields()
        for (name, field) in fields { field.resolve = wrap(name, field.resolve) }
        type.fields = { fields }
    }
}
