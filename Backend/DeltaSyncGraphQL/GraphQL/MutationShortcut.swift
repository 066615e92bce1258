import DeltaSyncCore
import GraphQL
import OrderedCollections

/// A generated create, update or delete mutation run without the GraphQL executor: what a
/// DataStore client sends for every local change (one root field, its arguments from
/// variables, a selection of the model's fields).
///
/// Planned once per document (``ResponsePlan``). Per request, its variables are coerced by
/// ``VariableCoercion``, the mutation runs, and ``ItemProjection`` completes the result.
/// Whatever it does not handle goes to the executor: before the mutation runs, a variable the
/// library would refuse; after it, a failed mutation or a result projection cannot complete,
/// which the executor then shapes from the outcome handed to it (``RequestScope``) without
/// running the mutation again. The executor spent more on coercing a model's input than the
/// mutation's write took.
struct MutationShortcut: @unchecked Sendable {
    // AST nodes are immutable values of the parsed request; they are only read.
    private let field: GraphQL.Field
    private let selection: SelectionSet
    private let fragments: [String: FragmentDefinition]
    private let mutation: ExecutableSchema.ModelMutation
    private let projection: ItemProjection
    private let plan: ItemPlan
    private let operation: OperationDefinition
    private let definition: GraphQLField
    private let schema: GraphQLSchema

    /// The response key of the mutation's result.
    var responseKey: String { field.alias?.value ?? field.name.value }

    /// The shortcut for `operation`, `nil` when the executor must run it.
    init?(_ operation: OperationDefinition, fragments: [String: FragmentDefinition], schema: ExecutableSchema) {
        guard operation.operation == .mutation, operation.directives.isEmpty, operation.selectionSet.selections.count == 1,
            let field = operation.selectionSet.selections.first as? GraphQL.Field, field.directives.isEmpty,
            let selection = field.selectionSet,
            let mutation = schema.modelMutations[field.name.value],
            let plan = schema.projection.plan(mutation.model, selection: [selection], fragments: fragments), !plan.hasRelations,
            let definition = try? schema.graphQL.mutationType?.fields()[field.name.value],
            field.arguments.allSatisfy({ definition.args[$0.name.value] != nil && $0.value is Variable }),
            operation.variableDefinitions.allSatisfy({ $0.defaultValue == nil })
        else { return nil }
        self.field = field
        self.selection = selection
        self.fragments = fragments
        self.mutation = mutation
        self.projection = schema.projection
        self.plan = plan
        self.operation = operation
        self.definition = definition
        self.schema = schema.graphQL
    }

    /// Every defined variable, coerced as the library would; `nil` where it would refuse one
    /// or a definition has a default (left to the library).
    private static func variables(
        _ definitions: [VariableDefinition], _ given: [String: JSONValue], schema: GraphQLSchema
    ) -> [String: Map]? {
        var coerced: [String: Map] = [:]
        for definition in definitions {
            guard definition.defaultValue == nil, let type = VariableCoercion.type(definition.type, in: schema),
                let value = VariableCoercion.coerce(given[definition.variable.name.value]?.map ?? .undefined, to: type)
            else { return nil }
            coerced[definition.variable.name.value] = value
        }
        return coerced
    }

    /// The field's arguments in definition order, as the library resolves them: a variable's
    /// coerced value (`.undefined` when not given), else the default. `nil` for an argument
    /// written inline (left to the library) or a missing value for a non-null argument.
    ///
    /// A validated document only passes a variable where its type fits the argument's, so a
    /// coerced variable needs no second check against the argument's type.
    private static func arguments(_ field: GraphQL.Field, definition: GraphQLField, variables: [String: Map]) -> Map? {
        guard field.arguments.allSatisfy({ definition.args[$0.name.value] != nil }) else { return nil }
        var arguments = OrderedDictionary<String, Map>()
        for (name, argument) in definition.args {
            let value: Map
            if let given = field.arguments.first(where: { $0.name.value == name }) {
                guard let variable = given.value as? Variable else { return nil }
                value = variables[variable.name.value] ?? .undefined
            } else {
                value = argument.defaultValue ?? .undefined
            }
            guard !(argument.type is GraphQLNonNull) || (value != .undefined && value != .null) else { return nil }
            arguments[name] = value
        }
        return .dictionary(arguments)
    }

    /// Runs the mutation with a request's variables. Returns the result for `data`, or the
    /// mutation's outcome for the executor to complete (``RequestScope``'s earlier results);
    /// `nil`, having run nothing, when the executor must coerce the variables.
    func run(variables: [String: JSONValue], caller: Caller? = nil) async -> Result<Map, Failure>? {
        guard let coerced = Self.variables(operation.variableDefinitions, variables, schema: schema),
            let arguments = Self.arguments(field, definition: definition, variables: coerced)
        else { return nil }
        let outcome: Result<ItemObject, any Error>
        do {
            let call = MutationField(name: field.name.value, selections: [selection], fragments: fragments)
            let access = caller?.access(mutation.model, mutation.operation, field: field.name.value, parentType: "Mutation")
                ?? .open(field: field.name.value, parentType: "Mutation")
            outcome = .success(try await mutation.run(arguments, call, access))
        } catch {
            outcome = .failure(error)
        }
        guard case .success(let object) = outcome, let result = projection.authorized(by: caller).object(object.item, plan: plan) else {
            return .failure(Failure(outcome: outcome))
        }
        return .success(result)
    }

    /// A mutation that ran but whose response the executor must write.
    struct Failure: Error {
        let outcome: Result<ItemObject, any Error>
    }
}
