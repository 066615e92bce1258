import GraphQL

/// `@function(name:region:accountId:invocationType:)` on a field: the Lambda chain that resolves
/// it, the same on a custom `Query`/`Mutation` field as on a field of a model or non-model type.
///
/// `invocationType: Event` is checked as Amplify's function transformer does, with its messages
/// (on one line): only `Query` and `Mutation` fields may use it, and when the last function of
/// the chain is `Event` the field returns `EventInvocationResponse`, declared exactly as
/// ``eventResponseShape``.
enum FunctionDirective {
    static let eventResponseTypeName = "EventInvocationResponse"
    static let eventResponseShape = "type EventInvocationResponse { success: Boolean! }"

    /// The field's `@function`s in the order written; empty when it has none.
    ///
    /// - Parameters:
    ///   - typeName: The type declaring the field (`Query`, `Post`).
    ///   - eventResponse: The schema's `EventInvocationResponse` object type, if it declares one.
    static func calls(
        _ field: FieldDefinition, typeName: String, eventResponse: ObjectTypeDefinition?
    ) throws(SchemaError) -> [CustomOperation.FunctionCall] {
        var functions: [CustomOperation.FunctionCall] = []
        for directive in field.directives where directive.name.value == "function" {
            guard let name = (directive.arguments.first { $0.name.value == "name" }?.value as? StringValue)?.value, !name.isEmpty else {
                throw SchemaError(at: directive.loc, "@function on '\(field.name.value)' needs name: \"the function's name\"")
            }
            let invocation = directive.arguments.first { $0.name.value == "invocationType" }?.value
            var isEvent = false
            if let invocation {
                guard let value = (invocation as? EnumValue)?.value, ["RequestResponse", "Event"].contains(value) else {
                    throw SchemaError(at: invocation.loc, "@function invocationType is RequestResponse or Event")
                }
                isEvent = value == "Event"
            }
            if isEvent && typeName != "Query" && typeName != "Mutation" {
                throw SchemaError(
                    at: field.name.loc, "@function definition with 'invocationType: Event' must be defined on Query or Mutation field.")
            }
            functions.append(.init(name: name, isEvent: isEvent))
        }
        if functions.last?.isEvent == true {
            try checkEventResponse(field, eventResponse: eventResponse)
        }
        return functions
    }

    private static func checkEventResponse(_ field: FieldDefinition, eventResponse: ObjectTypeDefinition?) throws(SchemaError) {
        guard (field.type as? NamedType)?.name.value == eventResponseTypeName else {
            throw SchemaError(
                at: field.name.loc,
                "Invalid return type \(print(ast: field.type)) for \(debugDescription(field)). Use return type "
                    + "'\(eventResponseTypeName)' and, if necessary, add '\(eventResponseShape)' to your model schema.")
        }
        guard let eventResponse else {
            throw SchemaError(
                at: field.name.loc,
                "Missing '\(eventResponseTypeName)' definition. Add this type definition to your schema: \(eventResponseShape)")
        }
        let fields = eventResponse.fields
        guard fields.count == 1, fields[0].name.value == "success",
            ((fields[0].type as? NonNullType)?.type as? NamedType)?.name.value == "Boolean"
        else {
            throw SchemaError(
                at: field.name.loc,
                "Invalid '\(eventResponseTypeName)' definition. Update the type definition in your schema to: \(eventResponseShape)")
        }
    }

    /// `doStuff(msg: String): String @function(name: foo, invocationType: Event)`, as Amplify
    /// describes a field in its messages (string values unquoted).
    private static func debugDescription(_ field: FieldDefinition) -> String {
        let arguments = field.arguments.isEmpty
            ? "" : "(" + field.arguments.map { "\($0.name.value): \(print(ast: $0.type))" }.joined(separator: ", ") + ")"
        let directives = field.directives.map { directive in
            let arguments = directive.arguments.map { argument in
                "\(argument.name.value): \((argument.value as? StringValue)?.value ?? print(ast: argument.value))"
            }
            return "@\(directive.name.value)" + (arguments.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))")
        }
        return "\(field.name.value)\(arguments): \(print(ast: field.type)) \(directives.joined(separator: " "))"
    }
}
