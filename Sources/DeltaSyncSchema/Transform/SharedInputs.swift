/// Inputs every model shares: per-scalar filter inputs, key conditions, enum filters.
extension AppSyncPrinter {
    /// `ne: T`, `eq: T`, ... for each operator name.
    private static func members(_ operators: [String], _ type: String) -> [String] {
        operators.map { "\($0): \(type)" }
    }

    private static let comparisons = ["ne", "eq", "le", "lt", "ge", "gt"]
    private static let keyComparisons = ["eq", "le", "lt", "ge", "gt"]
    private static let attributeChecks = ["attributeExists: Boolean", "attributeType: ModelAttributeTypes"]

    mutating func printSharedInputs() {
        for type in ["String", "ID"] {
            writer.block(
                "input Model\(type)Input",
                Self.members(Self.comparisons + ["contains", "notContains"], type)
                    + ["between: [\(type)]", "beginsWith: \(type)"] + Self.attributeChecks + ["size: ModelSizeInput"]
            )
        }
        for type in ["Int", "Float"] {
            writer.block(
                "input Model\(type)Input",
                Self.members(Self.comparisons, type) + ["between: [\(type)]"] + Self.attributeChecks
            )
        }
        writer.block("input ModelBooleanInput", Self.members(["ne", "eq"], "Boolean") + Self.attributeChecks)
        writer.block("input ModelSizeInput", Self.members(Self.comparisons, "Int") + ["between: [Int]"])
        writer.block("enum ModelAttributeTypes", [
            "binary", "binarySet", "bool", "list", "map", "number", "numberSet", "string", "stringSet", "_null",
        ])
        writer.block("enum ModelSortDirection", ["ASC", "DESC"])
        for type in ["String", "ID"] {
            writer.block(
                "input Model\(type)KeyConditionInput",
                Self.members(Self.keyComparisons, type) + ["between: [\(type)]", "beginsWith: \(type)"]
            )
        }
        for type in ["Int", "Float"] {
            writer.block("input Model\(type)KeyConditionInput", Self.members(Self.keyComparisons, type) + ["between: [\(type)]"])
        }
        for enumType in schema.enums {
            writer.block("input Model\(enumType.name)Input", Self.members(["eq", "ne"], enumType.name))
            if isUsedAsList(enumType) {
                writer.block(
                    "input Model\(enumType.name)ListInput",
                    Self.members(["eq", "ne"], "[\(enumType.name)]") + Self.members(["contains", "notContains"], enumType.name)
                )
            }
        }
    }

    /// Subscription filters have their own scalar inputs: no attribute checks, but `in`/`notIn`.
    mutating func printSubscriptionScalarInputs() {
        for type in ["String", "ID"] {
            writer.block(
                "input ModelSubscription\(type)Input",
                Self.members(Self.comparisons + ["contains", "notContains"], type)
                    + ["between: [\(type)]", "beginsWith: \(type)", "in: [\(type)]", "notIn: [\(type)]"]
            )
        }
        for type in ["Int", "Float"] {
            writer.block(
                "input ModelSubscription\(type)Input",
                Self.members(Self.comparisons, type) + ["between: [\(type)]", "in: [\(type)]", "notIn: [\(type)]"]
            )
        }
        writer.block("input ModelSubscriptionBooleanInput", Self.members(["ne", "eq"], "Boolean"))
    }

    /// `Model<Type><Index>CompositeKeyConditionInput` and the `...CompositeKeyInput` it compares.
    mutating func printCompositeKeyInputs(_ key: KeyShape) {
        let keyInput = key.compositeKeyInputName
        writer.block(
            "input \(key.compositeConditionInputName)",
            Self.members(Self.keyComparisons, keyInput) + ["between: [\(keyInput)]", "beginsWith: \(keyInput)"]
        )
        writer.block("input \(keyInput)", key.sortKeyFields.compactMap { name in
            key.model.field(named: name).map { "\(name): \($0.type.graphQLName)" }
        })
    }

    private func isUsedAsList(_ enumType: EnumType) -> Bool {
        schema.models.contains { model in
            model.storedFields.contains { $0.isList && $0.type == .enumType(enumType.name) }
        }
    }
}
