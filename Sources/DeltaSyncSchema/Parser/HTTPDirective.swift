import GraphQL

/// `@http(method:url:headers:)` on a custom `Query` or `Mutation` field, with the schema rewrite
/// Amplify's HTTP transformer makes:
///
/// - `:name` segments of the URL's path become `params: <Parent><Field>ParamsInput!`, each a
///   `String!`; the arguments left for the query are then only the scalar ones not named by a
///   path parameter (without path parameters every written argument is kept, whatever its type);
/// - those go into `query: <Parent><Field>QueryInput`, with their own `!` removed for every method
///   but GET; the argument is non-null when a field of the input still is (GET only);
/// - POST, PUT and PATCH also get `body: <Parent><Field>BodyInput` with the same fields, `!`
///   removed, and the argument nullable.
///
/// A field with no arguments and no path parameters keeps its (empty) argument list.
struct HTTPDirective {
    var call: HTTPCall
    /// The field's arguments after the rewrite.
    var arguments: [TypedName]
    /// The generated input types, in the order the arguments use them.
    var inputs: [InputType]

    /// Scalars Amplify counts as such when choosing the query arguments (`isScalar`): the
    /// standard and AWS ones, plus `BigInt` and `Double`.
    private static func isScalar(_ type: GraphQL.`Type`) -> Bool {
        var current: GraphQL.`Type` = type
        while true {
            if let nonNull = current as? NonNullType {
                current = nonNull.type
            } else if let list = current as? ListType {
                current = list.type
            } else {
                break
            }
        }
        guard let named = current as? NamedType else { return false }
        return ScalarType(rawValue: named.name.value) != nil || ["BigInt", "Double"].contains(named.name.value)
    }

    init(_ directive: Directive, field: FieldDefinition, parent: CustomOperation.Parent) throws(SchemaError) {
        let path = "\(parent.rawValue).\(field.name.value)"
        let arguments = try DirectiveArguments(directive, accepting: ["method", "url", "headers"])
        guard let url = try arguments.string("url") else {
            throw SchemaError(at: directive.loc, "@http on '\(path)' needs url: \"https://...\"")
        }
        guard url.value.hasPrefix("http://") || url.value.hasPrefix("https://") else {
            throw SchemaError(at: directive.loc, "@http directive requires a url parameter that begins with http:// or https://.")
        }
        var method = HTTPCall.Method.GET
        if let written = try arguments.string("method") {
            guard let known = HTTPCall.Method(rawValue: written.value) else {
                throw SchemaError(
                    at: written.location,
                    "@http method is one of " + HTTPCall.Method.allCases.map(\.rawValue).joined(separator: ", ")
                        + ", not '\(written.value)'")
            }
            method = known
        }
        let headers = try Self.headers(directive)

        let parameters = Self.pathParameters(url.value)
        var fieldArguments = field.arguments
        var rewritten: [TypedName] = []
        var inputs: [InputType] = []
        let typePrefix = Self.capitalized(parent.rawValue) + Self.capitalized(field.name.value)
        if !parameters.isEmpty {
            fieldArguments = fieldArguments.filter { Self.isScalar($0.type) && !parameters.contains($0.name.value) }
            let input = InputType(name: typePrefix + "ParamsInput", fields: parameters.map { TypedName(name: $0, type: "String!") })
            inputs.append(input)
            rewritten.append(TypedName(name: "params", type: input.name + "!"))
        }
        if !fieldArguments.isEmpty {
            let unwrap = method != .GET
            let fields = fieldArguments.map { argument in
                let type = unwrap ? ((argument.type as? NonNullType)?.type ?? argument.type) : argument.type
                return TypedName(
                    name: argument.name.value, type: print(ast: type) + (argument.defaultValue.map { " = " + print(ast: $0) } ?? ""))
            }
            let nonNull = !unwrap && fieldArguments.contains { $0.type is NonNullType }
            let query = InputType(name: typePrefix + "QueryInput", fields: fields)
            inputs.append(query)
            rewritten.append(TypedName(name: "query", type: query.name + (nonNull ? "!" : "")))
            if method.hasBody {
                let body = InputType(name: typePrefix + "BodyInput", fields: fields)
                inputs.append(body)
                rewritten.append(TypedName(name: "body", type: body.name))
            }
        }
        call = HTTPCall(
            method: method, url: url.value, headers: headers, pathParameters: parameters,
            requiredArguments: fieldArguments.filter { $0.type is NonNullType }.map(\.name.value))
        self.arguments = rewritten
        self.inputs = inputs
    }

    /// `headers: [{key: "x-api-key", value: "..."}]`; a single object counts as a list of one.
    private static func headers(_ directive: Directive) throws(SchemaError) -> [HTTPCall.Header] {
        guard let value = directive.arguments.first(where: { $0.name.value == "headers" })?.value, !(value is NullValue) else {
            return []
        }
        let elements = (value as? ListValue)?.values ?? [value]
        var headers: [HTTPCall.Header] = []
        for element in elements {
            guard let object = element as? ObjectValue else {
                throw SchemaError(at: element.loc, "@http headers are objects: {key: \"name\", value: \"value\"}")
            }
            let header = ObjectArgument(object: object, argument: "headers", directive: "http")
            try header.checkKeys(["key", "value"])
            guard let key = try header.string("key"), let value = try header.string("value") else {
                throw SchemaError(at: element.loc, "an @http header needs a string key and value")
            }
            headers.append(.init(key: key.value, value: value.value))
        }
        return headers
    }

    /// The `:name` segments of the URL's path (from the first `/` after the host), each once,
    /// in order; a name is made of letters, digits and `_`.
    static func pathParameters(_ url: String) -> [String] {
        let rest = url.drop { $0 != "/" }.dropFirst(2)  // past "http(s)://"
        guard let slash = rest.firstIndex(of: "/") else { return [] }
        var names: [String] = []
        var characters = rest[slash...].makeIterator()
        var current: String?
        func isWord(_ character: Character) -> Bool { character.isASCII && (character.isLetter || character.isNumber || character == "_") }
        func finish() {
            if let name = current, !name.isEmpty, !names.contains(name) { names.append(name) }
            current = nil
        }
        while let character = characters.next() {
            if character == ":" {
                finish()
                current = ""
            } else if current != nil, isWord(character) {
                current! += String(character)
            } else {
                finish()
            }
        }
        finish()
        return names
    }

    private static func capitalized(_ name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }
}
