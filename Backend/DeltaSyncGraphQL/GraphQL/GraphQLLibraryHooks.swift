import GraphQL

/// Every place DeltaSync relies on the GraphQL library's behaviour beyond its documented API,
/// in one file. `Package.swift` pins the library to the minor version these were checked
/// against (`.upToNextMinor`), and `GraphQLLibraryHooksTests` fails if one stops holding:
///
/// 1. A schema built from SDL has mutable closures on its types, and the executor reads them
///    at run time: ``replaceScalar(_:parseValue:parseLiteral:serialize:)`` swaps a scalar's
///    parsing, ``attach(_:to:in:wrap:)`` sets resolvers, ``wrapFields(of:in:_:)`` wraps them,
///    ``freezeInputFields(_:in:)`` replaces input types' field thunks.
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
    /// variables. Their fields never change once built, so compute them once (kept in `frozen`).
    static func freezeInputFields(_ schema: GraphQLSchema, in frozen: FrozenFields) throws {
        for type in schema.typeMap.values {
            guard let input = type as? GraphQLInputObjectType else { continue }
            frozen.freeze(input, try input.fields())
        }
    }

    /// Sets resolvers on a built type, during setup, before any execution. Each resolver is
    /// wrapped by `wrap` (the request's budget is spent before anything is read). The fields
    /// are kept in `frozen`.
    static func attach(
        _ resolvers: [String: GraphQLFieldResolve], to type: GraphQLObjectType, in frozen: FrozenFields,
        wrap: @escaping @Sendable (@escaping GraphQLFieldResolve) -> GraphQLFieldResolve = { $0 }
    ) throws {
        guard !resolvers.isEmpty else { return }
        let fields = try type.fields()
        for (name, field) in fields {
            guard let resolve = resolvers[name] else { continue }
            field.resolve = wrap(resolve)
        }
        frozen.freeze(type, fields)
    }

    /// Replaces the resolver of every field of a built type with `wrap`'s, which gets the
    /// field's name and its resolver (`nil` where the library resolves it by default). The
    /// fields are kept in `frozen`.
    static func wrapFields(
        of type: GraphQLObjectType, in frozen: FrozenFields,
        _ wrap: (_ name: String, _ resolve: GraphQLFieldResolve?) -> GraphQLFieldResolve
    ) throws {
        let fields = try type.fields()
        for (name, field) in fields { field.resolve = wrap(name, field.resolve) }
        frozen.freeze(type, fields)
    }
}

/// The field maps ``GraphQLLibraryHooks`` fixed on a schema's types, held by whoever owns the
/// schema (``ExecutableSchema``), and the end of that schema's types.
///
/// A schema's types name each other (a post its blog, the blog its posts), and the library
/// caches each type's field definitions, resolvers included, on the type: once a schema has
/// executed, its types hold each other in a cycle no reference count ends, and with them every
/// resolver, the store they write and its connections. So types read the fixed fields through a
/// weak reference to this holder, and when the holder goes (the schema's owner went), it empties
/// every type's fields, which clears the library's caches and ends the cycle.
///
/// `@unchecked Sendable`: written only while the schema is set up, before any execution; read
/// after that.
final class FrozenFields: @unchecked Sendable {
    private var output: [ObjectIdentifier: GraphQLFieldMap] = [:]
    private var input: [ObjectIdentifier: InputObjectFieldMap] = [:]
    /// Every type with fields of the schema this holder ends (``own(_:)``).
    private var owned: [any GraphQLNamedType] = []

    init() {}

    /// Takes charge of ending `schema`'s types when this holder goes: its own, not the
    /// introspection types (`__Type`, `__Field`, ...), which the library shares between schemas.
    func own(_ schema: GraphQLSchema) {
        owned = schema.typeMap.values.filter { !$0.name.hasPrefix("__") }
    }

    deinit {
        for type in owned {
            switch type {
            case let object as GraphQLObjectType: object.fields = { [:] }
            case let interface as GraphQLInterfaceType: interface.fields = { [:] }
            case let input as GraphQLInputObjectType: input.fields = { [:] }
            default: break
            }
        }
    }

    func freeze(_ type: GraphQLObjectType, _ fields: GraphQLFieldMap) {
        let id = ObjectIdentifier(type)
        output[id] = fields
        let name = type.name
        type.fields = { [weak self] in
            guard let fields = self?.output[id] else { throw Self.released(name) }
            return fields
        }
    }

    func freeze(_ type: GraphQLInputObjectType, _ fields: InputObjectFieldMap) {
        let id = ObjectIdentifier(type)
        input[id] = fields
        let name = type.name
        type.fields = { [weak self] in
            guard let fields = self?.input[id] else { throw Self.released(name) }
            return fields
        }
    }

    private static func released(_ type: String) -> GraphQLError {
        GraphQLError(message: "The schema of \(type) was released with its server; keep the ExecutableSchema while the schema is used.")
    }
}
