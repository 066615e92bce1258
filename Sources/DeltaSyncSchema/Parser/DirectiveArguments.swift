import GraphQL

/// A string read from a directive argument, with where it was written so errors can point at it.
struct StringArgument {
    var value: String
    var location: GraphQL.Location?
}

/// The arguments of one directive occurrence, checked against the names the directive accepts.
///
/// Reading an argument distinguishes "absent" (Amplify's default applies) from an explicit
/// `null` (which turns a feature off, as in `@model(queries: null)`).
struct DirectiveArguments {
    let directive: Directive
    private let arguments: [String: Argument]

    var name: String { directive.name.value }

    /// - Throws: ``SchemaError`` at an argument the directive does not accept, or given twice.
    init(_ directive: Directive, accepting names: Set<String>) throws(SchemaError) {
        self.directive = directive
        var arguments: [String: Argument] = [:]
        for argument in directive.arguments {
            let argumentName = argument.name.value
            guard names.contains(argumentName) else {
                throw SchemaError(
                    at: argument.loc,
                    "unknown argument '\(argumentName)' for @\(directive.name.value); expected one of "
                        + names.sorted().joined(separator: ", ")
                )
            }
            guard arguments[argumentName] == nil else {
                throw SchemaError(at: argument.loc, "argument '\(argumentName)' of @\(directive.name.value) is given twice")
            }
            arguments[argumentName] = argument
        }
        self.arguments = arguments
    }

    func contains(_ name: String) -> Bool { arguments[name] != nil }

    /// `true` when the argument is written as `null`.
    func isNull(_ name: String) -> Bool { arguments[name]?.value is NullValue }

    /// The place to report a problem with an argument, or with the directive when it is absent.
    func location(of name: String) -> GraphQL.Location? { arguments[name]?.loc ?? directive.loc }

    /// The argument as a string; `nil` when absent or `null`.
    func string(_ name: String) throws(SchemaError) -> StringArgument? {
        guard let argument = arguments[name], !(argument.value is NullValue) else { return nil }
        return try Self.string(argument.value, argument: name, directive: self.name)
    }

    /// The argument as a list of strings (a single string counts as a one-element list, as
    /// GraphQL input coercion allows); `nil` when absent or `null`.
    func stringList(_ name: String) throws(SchemaError) -> [StringArgument]? {
        guard let argument = arguments[name], !(argument.value is NullValue) else { return nil }
        return try Self.stringList(argument.value, argument: name, directive: self.name)
    }

    /// The argument as an input object (`{get: "post", list: null}`); `nil` when absent or `null`.
    func object(_ name: String) throws(SchemaError) -> ObjectArgument? {
        guard let argument = arguments[name], !(argument.value is NullValue) else { return nil }
        guard let object = argument.value as? ObjectValue else {
            throw SchemaError(at: argument.value.loc, "argument '\(name)' of @\(self.name) must be an object")
        }
        return ObjectArgument(object: object, argument: name, directive: self.name)
    }

    static func string(_ value: Value, argument: String, directive: String) throws(SchemaError) -> StringArgument {
        if let string = value as? StringValue {
            return StringArgument(value: string.value, location: string.loc)
        }
        // Amplify writes some values (a subscription level, an enum default) as enum literals.
        if let literal = value as? EnumValue {
            return StringArgument(value: literal.value, location: literal.loc)
        }
        throw SchemaError(at: value.loc, "argument '\(argument)' of @\(directive) must be a string")
    }

    static func stringList(_ value: Value, argument: String, directive: String) throws(SchemaError) -> [StringArgument] {
        guard let list = value as? ListValue else {
            return [try string(value, argument: argument, directive: directive)]
        }
        var strings: [StringArgument] = []
        for element in list.values {
            strings.append(try string(element, argument: argument, directive: directive))
        }
        return strings
    }
}

/// An input-object argument of a directive, such as `queries: {get: "post"}` of `@model`.
struct ObjectArgument {
    let object: ObjectValue
    let argument: String
    let directive: String

    /// - Throws: ``SchemaError`` at a key outside `names`.
    func checkKeys(_ names: Set<String>) throws(SchemaError) {
        for field in object.fields where !names.contains(field.name.value) {
            throw SchemaError(
                at: field.loc,
                "unknown key '\(field.name.value)' in '\(argument)' of @\(directive); expected one of "
                    + names.sorted().joined(separator: ", ")
            )
        }
    }

    private func value(_ key: String) -> Value? { object.fields.first { $0.name.value == key }?.value }

    func contains(_ key: String) -> Bool { value(key) != nil }

    func isNull(_ key: String) -> Bool { value(key) is NullValue }

    /// The key's value as a string; `nil` when absent or `null`.
    func string(_ key: String) throws(SchemaError) -> StringArgument? {
        guard let value = value(key), !(value is NullValue) else { return nil }
        return try DirectiveArguments.string(value, argument: "\(argument).\(key)", directive: directive)
    }

    /// The key's value as a list of strings; `nil` when absent or `null`.
    func stringList(_ key: String) throws(SchemaError) -> [StringArgument]? {
        guard let value = value(key), !(value is NullValue) else { return nil }
        return try DirectiveArguments.stringList(value, argument: "\(argument).\(key)", directive: directive)
    }
}
