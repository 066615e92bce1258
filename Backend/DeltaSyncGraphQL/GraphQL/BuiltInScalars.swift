import GraphQL

/// `Int` and `Boolean` input read as AppSync reads them.
///
/// The GraphQL library's `Int` accepts any number within 32 bits from a variable (`1.5`
/// included) and any 64-bit literal; its `Boolean` accepts `1` and `0` from a variable.
/// AppSync's `Int` is a whole number from -2^31 to 2^31-1 however it is written, and its
/// `Boolean` is `true` or `false`. ``install(in:)`` replaces the two scalars' parsing.
enum BuiltInScalars {
    static func install(in schema: GraphQLSchema) {
        if let int = schema.getType(name: "Int") as? GraphQLScalarType {
            GraphQLLibraryHooks.replaceScalar(
                int,
                parseValue: { value in
                    guard case .number(let number) = value, let integer = exactInteger(number) else {
                        throw GraphQLError(message: "Int cannot represent non-integer value: \(value)")
                    }
                    return .int(try int32(integer, value))
                },
                parseLiteral: { ast in
                    guard let literal = ast as? IntValue, let integer = Int(literal.value) else {
                        throw GraphQLError(message: "Int cannot represent non-integer value: \(print(ast: ast))", nodes: [ast])
                    }
                    return .int(try int32(integer, literal.value))
                })
        }
        if let boolean = schema.getType(name: "Boolean") as? GraphQLScalarType {
            GraphQLLibraryHooks.replaceScalar(
                boolean,
                parseValue: { value in
                    guard case .bool = value else {
                        throw GraphQLError(message: "Boolean cannot represent a non boolean value: \(value)")
                    }
                    return value
                })
        }
    }

    /// The whole number `number` holds exactly; `nil` for a fraction, a Boolean, or a value
    /// outside 64 bits.
    ///
    /// Request JSON reads an integer that fits 64 bits as one (``JSONValue/int(_:)``); any
    /// other number arrives as a double, which is either a fraction or a value that was
    /// rounded on the way (9223372036854775809 reads as 2^63 and -9223372036854775809 as
    /// -2^63, which does fit), so no double counts as an exact integer.
    static func exactInteger(_ number: Number) -> Int? {
        switch number.storageType {
        case .int: return number.intValue
        case .bool, .double, .unknown: return nil
        }
    }

    private static func int32(_ integer: Int, _ written: Any) throws -> Int {
        guard let int32 = Int32(exactly: integer) else {
            throw GraphQLError(message: "Int cannot represent non 32-bit signed integer value: \(written)")
        }
        return Int(int32)
    }
}
