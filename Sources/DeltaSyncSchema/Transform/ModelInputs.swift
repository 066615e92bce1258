/// Inputs generated per model: filters, conditions, mutation inputs, subscription filters.
extension AppSyncPrinter {
    mutating func printModelInputs(_ model: ModelSchema) {
        let filterable = model.storedFields.filter { $0.filterInputTypeName != nil }
        let keyFields = Set(model.primaryKey.fields)
        writer.block("input \(model.filterInputTypeName)", filterable.map { "\($0.name): \($0.filterInputTypeName!)" } + [
            "and: [\(model.filterInputTypeName)]", "or: [\(model.filterInputTypeName)]",
            "not: \(model.filterInputTypeName)",
        ] + deletedFilter)
        writer.block(
            "input \(model.conditionInputTypeName)",
            filterable.filter { !keyFields.contains($0.name) }.map { "\($0.name): \($0.filterInputTypeName!)" } + [
                "and: [\(model.conditionInputTypeName)]", "or: [\(model.conditionInputTypeName)]",
                "not: \(model.conditionInputTypeName)",
            ] + deletedFilter
        )
        // Implicit owner fields are left out: the server fills them (see `implicitOwnerFields`).
        writer.block("input \(model.createInputTypeName)", model.inputFields.map { field in
            "\(field.name): \(field.typeReference(named: inputTypeName(field), isRequired: isRequiredOnCreate(field, in: model)))"
        } + versionInput)
        writer.block("input \(model.updateInputTypeName)", model.inputFields.map { field in
            "\(field.name): \(field.typeReference(named: inputTypeName(field), isRequired: keyFields.contains(field.name)))"
        } + versionInput)
        writer.block("input \(model.deleteInputTypeName)", model.primaryKey.fields.compactMap { name in
            model.field(named: name).map { "\(name): \($0.type.graphQLName)!" }
        } + versionInput)
    }

    mutating func printSubscriptionFilter(_ model: ModelSchema) {
        let name = model.subscriptionFilterInputTypeName
        writer.block("input \(name)", model.storedFields.compactMap { field in
            field.subscriptionFilterInputTypeName.map { "\(field.name): \($0)" }
        } + ["and: [\(name)]", "or: [\(name)]"] + deletedFilter)
    }

    /// `LocationInput`: a non-model value as mutations accept it.
    mutating func printNonModelInput(_ nonModel: NonModelType) {
        writer.block("input \(nonModel.inputTypeName)", nonModel.fields.map { field in
            "\(field.name): \(field.typeReference(named: inputTypeName(field), isRequired: field.isRequired))"
        })
    }

    /// Non-model values are written through their input type; everything else as itself.
    private func inputTypeName(_ field: Field) -> String {
        if case .nonModel(let name) = field.type {
            return "\(name)Input"
        }
        return field.type.graphQLName
    }

    /// On create the server fills in `id` (when it is an `ID`), `@default` values and the
    /// timestamps, so clients may leave those out.
    private func isRequiredOnCreate(_ field: Field, in model: ModelSchema) -> Bool {
        guard field.isRequired, field.defaultValue == nil else { return false }
        if field.name == "id", field.type == .scalar(.id) { return false }
        return field.name != model.timestamps.createdAt && field.name != model.timestamps.updatedAt
    }
}

extension Field {
    /// The filter input of a stored scalar or enum field (`ModelStringInput`,
    /// `ModelPostStatusInput`, `ModelPostStatusListInput`); `nil` for non-model values, which
    /// filters cannot reach.
    var filterInputTypeName: String? {
        switch type {
        case .scalar(let scalar): return "Model\(scalar.filterFamily)Input"
        case .enumType(let name): return isList ? "Model\(name)ListInput" : "Model\(name)Input"
        case .nonModel, .model: return nil
        }
    }

    /// The subscription filter input of a stored scalar or enum field; enums compare as strings.
    var subscriptionFilterInputTypeName: String? {
        switch type {
        case .scalar(let scalar): return "ModelSubscription\(scalar.filterFamily)Input"
        case .enumType: return "ModelSubscriptionStringInput"
        case .nonModel, .model: return nil
        }
    }
}
