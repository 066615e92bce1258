extension AmplifySchema {
    /// This schema as Gen 2's `defineData` serves a schema written in SDL, where its defaults
    /// differ from Gen 1's: conflict detection is never on; an `@index` without a
    /// `queryField` still gets a query, named `<plural>By<Field>And<SortField>...`
    /// (`postsByBlogIdAndTitle`), unless a field of that name exists; and a model without
    /// `@auth` admits API-key callers only (Gen 2 denies every other caller but its own
    /// backend's IAM roles, which a local server does not have).
    ///
    /// ```swift
    /// let schema = try AmplifySchema.parse(source: text, file: "schema.graphql").servingGen2Defaults()
    /// ```
    public func servingGen2Defaults() -> AmplifySchema {
        var schema = servingConflictDetection(.none)
        var taken = Set(schema.customOperations.map(\.name))
        for model in schema.models {
            let operations = model.operations
            for name in [operations.get, operations.list, operations.sync].compactMap({ $0 }) { taken.insert(name) }
            for index in model.indexes { if let name = index.queryField { taken.insert(name) } }
        }
        for position in schema.models.indices where !schema.models[position].isJoinModel {
            if schema.models[position].authRules == nil {
                schema.models[position].authRules = [AuthRule(strategy: .public, provider: .apiKey)]
            }
            let model = schema.models[position]
            for slot in model.indexes.indices {
                let index = model.indexes[slot]
                // Indexes relations make for themselves (`gsi-…`) have no query in Gen 2 either.
                guard index.queryField == nil, !index.name.hasPrefix("gsi-") else { continue }
                let name = Naming.lowerFirst(Naming.plural(model.name)) + "By"
                    + ([index.partitionField] + index.sortKeyFields).map(Naming.upperFirst).joined(separator: "And")
                guard taken.insert(name).inserted else { continue }
                schema.models[position].indexes[slot].queryField = name
            }
        }
        return schema
    }

    /// The authorization modes `defineData` gives an API that names none: user pools by default
    /// when the rules use them (the app has an auth resource), else an API key; the other modes
    /// the rules use; and IAM, which Gen 2 always turns on.
    public var gen2DefaultAuthModes: APIAuthModes {
        let used = authModesUsed
        let defaultMode: AuthMode = used.contains(.userPools) ? .userPools : .apiKey
        var additional = used.filter { $0 != defaultMode }
        if !additional.contains(.iam) { additional.append(.iam) }
        return APIAuthModes(defaultMode: defaultMode, additionalModes: additional)
    }
}
