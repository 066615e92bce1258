extension ModelSchema {
    /// Owner fields that `@auth` owner rules (on the type or on a field) added because the type
    /// does not declare them, e.g. `owner` for `@auth(rules: [{ allow: owner }])` on a type
    /// without an `owner` field.
    ///
    /// Amplify's auth transformer adds such a field to the type and to the filter and condition
    /// inputs, but not to `CreateXInput` / `UpdateXInput`: the server fills it from the caller's
    /// identity, and a client that sends it is refused by AppSync's input validation. Declare the
    /// field in the schema to let callers set or reassign owners.
    ///
    /// ```swift
    /// // type Todo @model @auth(rules: [{ allow: owner }]) { id: ID! content: String }
    /// todo.implicitOwnerFields        // ["owner"]
    /// todo.inputFields.map(\.name)    // ["id", "content", "createdAt", "updatedAt"]
    /// ```
    public var implicitOwnerFields: Set<String> {
        let rules = (authRules ?? []) + fields.flatMap { $0.authRules ?? [] }
        return Set(rules.filter { $0.strategy == .owner }.map(\.ownerField).filter { field(named: $0)?.isGenerated == true })
    }

    /// The stored fields a create or update input carries: all but ``implicitOwnerFields``.
    public var inputFields: [Field] {
        let implicit = implicitOwnerFields
        return implicit.isEmpty ? storedFields : storedFields.filter { !implicit.contains($0.name) }
    }
}
