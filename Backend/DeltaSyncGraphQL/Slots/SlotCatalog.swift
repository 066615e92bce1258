import DeltaSyncCore

/// A generated field's slots and overrides, parsed: the functions before and after its data
/// step, and the templates that replace that step's halves.
struct SlotPlan: Sendable {
    let field: GeneratedField
    var before: [any ResolverFunction] = []
    var after: [any ResolverFunction] = []
    /// An override's request template, over ``table``.
    var request: MappingTemplate?
    /// An override's response template.
    var response: MappingTemplate?
    /// The model's table, for an overriding request template.
    var table: (any DataSource)?

    /// The field's pipeline around `generated`, DeltaSync's data step.
    func resolver(generated: GeneratedDataStep) throws(AppSyncError) -> FieldResolver {
        var data: any ResolverFunction = generated
        if request != nil || response != nil {
            let template = request.map { request in
                TemplateFunction(name: generated.name, dataSource: table ?? NoneDataSource(), request: request, response: response)
            }
            data = OverriddenDataStep(field: field, generated: generated, template: template, response: template == nil ? response : nil)
        }
        return try FieldResolver.pipeline(before: nil, functions: before + [data] + after, after: nil)
    }
}

/// The project's slot functions and overrides (``SlotFunctionDefinition``,
/// ``DataStepOverride``) made ready to run: templates parsed, each checked against the fields
/// DeltaSync generates and the slots each has.
enum SlotCatalog {
    /// - Throws: ``AppSyncError`` (`BadRequest`, or `MappingTemplate` with the file, line and
    ///   column) for a file on a field DeltaSync does not generate, a slot the field's pipeline
    ///   does not have, an override of a subscription, two files in one place, or a template
    ///   that does not parse.
    static func compile(
        _ slots: [SlotFunctionDefinition], overrides: [DataStepOverride], environment: ResolverEnvironment
    ) throws(AppSyncError) -> [FieldCoordinate: SlotPlan] {
        let generated = GeneratedField.all(of: environment.schema)
        var plans: [FieldCoordinate: SlotPlan] = [:]
        func field(_ coordinate: FieldCoordinate, for file: String) throws(AppSyncError) -> GeneratedField {
            guard let field = generated[coordinate] else {
                throw AppSyncError(.badRequest, "\(file): \(coordinate) is not a field DeltaSync generates for a model; slots and overrides attach to generated queries, mutations and subscriptions.")
            }
            return field
        }
        let none = NoneDataSource()
        // Slots in pipeline order (the cases' order); within one, Amplify sorts functions by the
        // text "order<N>": 10 runs before 2.
        func rank(_ slot: Slot) -> Int { Slot.allCases.firstIndex(of: slot)! }
        let ordered = slots.sorted { (rank($0.slot), "order\($0.position)") < (rank($1.slot), "order\($1.position)") }
        var seen: Set<String> = []
        for definition in ordered {
            let coordinate = FieldCoordinate(type: definition.type, field: definition.field)
            let file = definition.request?.name ?? definition.response?.name ?? "\(coordinate).\(definition.slot).\(definition.position)"
            let target = try field(coordinate, for: file)
            let order = Slot.order(for: target.kind)
            guard seen.insert("\(coordinate).\(definition.slot.rawValue).\(definition.position)").inserted else {
                throw AppSyncError(.badRequest, "\(file): \(coordinate) has two functions at \(definition.slot.rawValue) \(definition.position).")
            }
            let name = "\(coordinate.type)\(coordinate.field)\(definition.slot.rawValue)\(definition.position - 1)Function"
            let function = TemplateFunction(
                name: name, dataSource: none,
                request: try MappingTemplate(definition.request?.text ?? "$util.toJson({})", name: definition.request?.name ?? "\(name).req.vtl"),
                response: try MappingTemplate(definition.response?.text ?? "$util.toJson({})", name: definition.response?.name ?? "\(name).res.vtl"))
            var plan = plans[coordinate] ?? SlotPlan(field: target)
            if order.before.contains(definition.slot) {
                plan.before.append(function)
            } else if order.after.contains(definition.slot) {
                plan.after.append(function)
            } else {
                let names = (order.before + order.after).map(\.rawValue).joined(separator: ", ")
                throw AppSyncError(.badRequest, "\(file): \(coordinate) has no \(definition.slot.rawValue) slot; its slots are \(names).")
            }
            plans[coordinate] = plan
        }
        for override in overrides {
            let coordinate = FieldCoordinate(type: override.type, field: override.field)
            let file = override.request?.name ?? override.response?.name ?? coordinate.description
            let target = try field(coordinate, for: file)
            guard target.kind != .subscription else {
                throw AppSyncError(.badRequest, "\(file): \(coordinate) is a subscription, whose generated step reads nothing to override; put templates in its slots.")
            }
            var plan = plans[coordinate] ?? SlotPlan(field: target)
            guard plan.request == nil, plan.response == nil else {
                throw AppSyncError(.badRequest, "\(file): \(coordinate)'s data step is overridden twice.")
            }
            if let request = override.request {
                plan.request = try MappingTemplate(request.text, name: request.name)
                plan.table = try DynamoDBDataSource(name: "\(target.model.name)Table", table: target.model.name, environment: environment)
            }
            if let response = override.response { plan.response = try MappingTemplate(response.text, name: response.name) }
            plans[coordinate] = plan
        }
        return plans
    }
}
