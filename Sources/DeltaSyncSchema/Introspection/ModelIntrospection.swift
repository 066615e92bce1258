import DeltaSyncCore

extension AmplifySchema {
    /// The `model_introspection` document Amplify's codegen writes into `amplify_outputs.json`
    /// (`data.model_introspection`): what Gen 2's `generateClient()` builds `client.models`
    /// (and `client.queries`, `client.mutations`, `client.subscriptions`) from. Models with their
    /// fields, associations, keys and auth rules; enums; non-model types; the schema's own root
    /// fields. Built from the schema as written, like Amplify's (no sync metadata, no
    /// generated inputs).
    ///
    /// ```swift
    /// let introspection = schema.modelIntrospection
    /// introspection["models"]["Post"]["primaryKeyInfo"]["primaryKeyFieldName"]   // "id"
    /// ```
    public var modelIntrospection: JSONValue {
        var models: [String: JSONValue] = [:]
        for model in self.models {
            models[model.name] = introspection(of: model)
        }
        var enums: [String: JSONValue] = [:]
        for enumType in self.enums {
            enums[enumType.name] = ["name": .string(enumType.name), "values": .array(enumType.values.map(JSONValue.string))]
        }
        var nonModels: [String: JSONValue] = [:]
        for nonModel in self.nonModels {
            nonModels[nonModel.name] = [
                "name": .string(nonModel.name),
                "fields": .object(Dictionary(uniqueKeysWithValues: nonModel.fields.map { ($0.name, introspection(of: $0, in: nil)) })),
            ]
        }
        var root: [String: JSONValue] = ["version": 1, "models": .object(models), "enums": .object(enums), "nonModels": .object(nonModels)]
        root.merge(operationIntrospection) { first, _ in first }
        return .object(root)
    }

    private func introspection(of model: ModelSchema) -> JSONValue {
        var attributes: [JSONValue] = [["type": "model", "properties": [:]]]
        let isCustomKey = model.primaryKey != PrimaryKey()
        if isCustomKey {
            attributes.append(["type": "key", "properties": ["fields": .array(model.primaryKey.fields.map(JSONValue.string))]])
        }
        // Indexes the schema declares; those relations add (`gsi-…`, join models' `by…`) are Amplify's own.
        for index in model.indexes where !index.name.hasPrefix("gsi-") && !model.isJoinModel {
            var properties: [String: JSONValue] = [
                "name": .string(index.name), "fields": .array(([index.partitionField] + index.sortKeyFields).map(JSONValue.string)),
            ]
            if let queryField = index.queryField { properties["queryField"] = .string(queryField) }
            attributes.append(["type": "key", "properties": .object(properties)])
        }
        if let rules = model.authRules {
            attributes.append(["type": "auth", "properties": ["rules": .array(rules.compactMap(Self.introspection(of:)))]])
        }
        return [
            "name": .string(model.name),
            "fields": .object(Dictionary(uniqueKeysWithValues: model.fields.map { ($0.name, introspection(of: $0, in: model)) })),
            "syncable": true,
            "pluralName": .string(Naming.plural(model.name)),
            "attributes": .array(attributes),
            "primaryKeyInfo": [
                "isCustomPrimaryKey": .bool(isCustomKey),
                "primaryKeyFieldName": .string(model.primaryKey.partitionField),
                "sortKeyFieldNames": .array(model.primaryKey.sortKeyFields.map(JSONValue.string)),
            ],
        ]
    }

    private func introspection(of field: Field, in model: ModelSchema?) -> JSONValue {
        let type: JSONValue
        switch field.type {
        case .scalar(let scalar): type = .string(scalar.rawValue)
        case .enumType(let name): type = ["enum": .string(name)]
        case .nonModel(let name): type = ["nonModel": .string(name)]
        case .model(let name): type = ["model": .string(name)]
        }
        var entry: [String: JSONValue] = [
            "name": .string(field.name), "type": type, "isArray": .bool(field.isList),
            // For a list, whether its elements are required; the list's own nullability follows.
            "isRequired": .bool(field.isList ? field.isListElementRequired : field.isRequired),
            "attributes": [],
        ]
        if field.isList { entry["isArrayNullable"] = .bool(!field.isRequired) }
        if let model, field.isGenerated, [model.timestamps.createdAt, model.timestamps.updatedAt].contains(field.name) {
            entry["isReadOnly"] = true
            entry["isRequired"] = false
        }
        if let relation = field.relation, let model {
            entry["association"] = association(relation, in: model)
        }
        return .object(entry)
    }

    private func association(_ relation: Relation, in model: ModelSchema) -> JSONValue {
        let strings = { (names: [String]) in JSONValue.array(names.map(JSONValue.string)) }
        switch relation.kind {
        case .hasMany, .manyToMany:
            return ["connectionType": "HAS_MANY", "associatedWith": strings(relation.relatedFields)]
        case .belongsTo:
            return ["connectionType": "BELONGS_TO", "targetNames": strings(relation.localFields)]
        case .hasOne:
            // The related item holds the key (`references:`), or this one does (`fields:`).
            if relation.localFields == model.primaryKey.fields, self.model(named: relation.relatedModel)?.primaryKey.fields != relation.relatedFields {
                return ["connectionType": "HAS_ONE", "associatedWith": strings(relation.relatedFields), "targetNames": []]
            }
            return ["connectionType": "HAS_ONE", "associatedWith": strings(relation.relatedFields), "targetNames": strings(relation.localFields)]
        }
    }

    /// A rule as the codegen normalises it: every operation named, owner and group defaults
    /// filled in; dynamic group rules are left out, as Amplify's.
    private static func introspection(of rule: AuthRule) -> JSONValue? {
        if rule.groupsField != nil { return nil }
        var operations: [String] = []
        for operation in [ModelOperation.create, .update, .delete] where rule.grants(operation) {
            operations.append(operation.rawValue)
        }
        if ModelOperation.read.isSubset(of: rule.operations) {
            operations.append("read")
        } else {
            for operation in [ModelOperation.get, .list, .listen, .sync, .search] where rule.grants(operation) {
                operations.append(operation.rawValue)
            }
        }
        var entry: [String: JSONValue] = [
            "allow": .string(rule.strategy.rawValue), "provider": .string(rule.provider.rawValue),
            "operations": .array(operations.map(JSONValue.string)),
        ]
        switch rule.strategy {
        case .owner:
            entry["ownerField"] = .string(rule.ownerField)
            entry["identityClaim"] = .string(rule.identityClaim == "sub::username" ? "cognito:username" : rule.identityClaim)
        case .groups:
            entry["groups"] = .array(rule.groups.map(JSONValue.string))
            entry["groupClaim"] = .string(rule.groupClaim)
        case .public, .private, .custom:
            break
        }
        return .object(entry)
    }
}
