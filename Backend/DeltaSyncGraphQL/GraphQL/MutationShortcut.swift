import DeltaSyncCore
import GraphQL
import OrderedCollections

/// A generated create, update or delete mutation run without the GraphQL executor: what a
/// DataStore client sends for every local change (one root field, its arguments from
/// variables, a selection of the model's fields).
///
/// Planned once per document (``ResponsePlan``), its variables' coercion too
/// (``VariableCoercion/plan(for:)``). Per request, the variables are coerced, the mutation runs,
/// and ``ItemProjection`` completes the result.
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
    private let planner: ItemPlanner
    private let plan: ItemPlan
    /// Each defined variable and how to coerce it.
    private let variablePlans: [(name: String, plan: VariableCoercion.Plan)]
    /// The field's arguments in definition order: the variable passed to each, else its default.
    private let argumentSources: [Argument]

    private struct Argument {
        let name: String
        let variable: String?
        let defaultValue: Map?
        let nonNull: Bool
    }

    /// The response key of the mutation's result.
    var responseKey: String { field.alias?.value ?? field.name.value }

    /// The shortcut for `operation`, `nil` when the executor must run it.
    init?(_ operation: OperationDefinition, fragments: [String: FragmentDefinition], schema: ExecutableSchema) {
        guard operation.operation == .mutation, operation.directives.isEmpty, operation.selectionSet.selections.count == 1,
            let field = operation.selectionSet.selections.first as? GraphQL.Field, field.directives.isEmpty,
            let selection = field.selectionSet,
            let mutation = schema.modelMutations[field.name.value],
            let plan = schema.planner.plan(mutation.model, selection: [selection], fragments: fragments), !plan.hasRelations,
            let definition = try? schema.graphQL.mutationType?.fields()[field.name.value],
            field.arguments.allSatisfy({ definition.args[$0.name.value] != nil && $0.value is Variable }),
            operation.variableDefinitions.allSatisfy({ $0.defaultValue == nil })
        else { return nil }
        // A variable of a type that is no input type: the library reports it.
        var variables: [(name: String, plan: VariableCoercion.Plan)] = []
        for variable in operation.variableDefinitions {
            guard let type = VariableCoercion.type(variable.type, in: schema.graphQL) else { return nil }
            variables.append((variable.variable.name.value, VariableCoercion.plan(for: type)))
        }
        self.variablePlans = variables
        self.argumentSources = definition.args.map { name, argument in
            Argument(
                name: name, variable: (field.arguments.first { $0.name.value == name }?.value as? Variable)?.name.value,
                defaultValue: argument.defaultValue, nonNull: argument.type is GraphQLNonNull)
        }
        self.field = field
        self.selection = selection
        self.fragments = fragments
        self.mutation = mutation
        self.planner = schema.planner
        self.plan = plan
    }

    /// Every defined variable, coerced as the library would; `nil` where it would refuse one.
    private func coerced(_ given: [String: JSONValue]) -> [String: Map]? {
        var coerced: [String: Map] = [:]
        coerced.reserveCapacity(variablePlans.count)
        for (name, plan) in variablePlans {
            guard let value = VariableCoercion.coerce(given[name]?.map ?? .undefined, with: plan) else { return nil }
            coerced[name] = value
        }
        return coerced
    }

    /// The field's arguments in definition order, as the library resolves them: a variable's
    /// coerced value (`.undefined` when not given), else the default. `nil` for a missing value
    /// of a non-null argument.
    ///
    /// A validated document only passes a variable where its type fits the argument's, so a
    /// coerced variable needs no second check against the argument's type.
    private func arguments(_ variables: [String: Map]) -> Map? {
        var resolved = OrderedDictionary<String, Map>(minimumCapacity: argumentSources.count)
        for argument in argumentSources {
            let value = argument.variable.map { variables[$0] ?? .undefined } ?? argument.defaultValue ?? .undefined
            guard !argument.nonNull || (value != .undefined && value != .null) else { return nil }
            resolved[argument.name] = value
        }
        return .dictionary(resolved)
    }

    /// Runs the mutation with a request's variables. Returns the result for `data`, or the
    /// mutation's outcome for the executor to complete (``RequestScope``'s earlier results);
    /// `nil`, having run nothing, when the executor must coerce the variables.
    func run(variables: [String: JSONValue], caller: Caller) async -> Result<Completed, Failure>? {
        guard let coerced = coerced(variables), let arguments = arguments(coerced) else { return nil }
        let outcome: Result<ModelObject, any Error>
        do {
            let call = MutationField(name: field.name.value, selections: [selection], fragments: fragments)
            let access = caller.access(mutation.model, mutation.operation, field: field.name.value, parentType: "Mutation")
            outcome = .success(try await mutation.run(arguments, call, access))
        } catch {
            outcome = .failure(error)
        }
        guard case .success(let object) = outcome else { return .failure(Failure(outcome: outcome)) }
        // A result the caller may not read is withheld; its event is the server's completion.
        let readable = caller.mayReadResult(of: mutation.operation, object.item, model: mutation.model)
        guard let result = planner.projection(for: readable ? caller : caller.server).object(object.item, plan: plan) else {
            return .failure(Failure(outcome: outcome))
        }
        // What a plain API's event carries for a versioned API's subscribers on the same store.
        let written = planner.schema.isVersioned
            ? nil : (object.written ?? object.item).filter { MutationEvent.metadataFields.contains($0.key) }
        return .success(Completed(response: readable ? result : .null, event: result, written: written))
    }

    /// A mutation's result for the response, and as its event is made from it (the same,
    /// unless the caller may not read the result).
    struct Completed: Sendable {
        let response: Map
        let event: Map
        /// The write's sync metadata, for an API without conflict detection (see ``MutationEvent``).
        let written: Item?
    }

    /// A mutation that ran but whose response the executor must write.
    struct Failure: Error {
        let outcome: Result<ModelObject, any Error>
    }
}
