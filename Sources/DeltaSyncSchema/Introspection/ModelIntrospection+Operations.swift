import DeltaSyncCore

extension AmplifySchema {
    /// `queries`, `mutations` and `subscriptions` of `model_introspection`: the schema's own
    /// root fields (custom operations; the generated ones are the models'), which Gen 2's client
    /// calls as `client.queries.<name>(args)`. Empty sections are left out, as the codegen does.
    var operationIntrospection: [String: JSONValue] {
        var sections: [String: JSONValue] = [:]
        for (key, parent) in [("queries", CustomOperation.Parent.query), ("mutations", .mutation)] {
            let operations = customOperations.filter { $0.parent == parent }
            guard !operations.isEmpty else { continue }
            sections[key] = .object(Dictionary(uniqueKeysWithValues: operations.map {
                ($0.name, operationEntry($0.name, returnType: $0.returnType, arguments: $0.arguments))
            }))
        }
        if !customSubscriptions.isEmpty {
            sections["subscriptions"] = .object(Dictionary(uniqueKeysWithValues: customSubscriptions.map {
                ($0.name, operationEntry($0.name, returnType: $0.returnType, arguments: $0.arguments))
            }))
        }
        return sections
    }

    private func operationEntry(_ name: String, returnType: String, arguments: [TypedName]) -> JSONValue {
        var entry = typeEntry(name, returnType)
        if !arguments.isEmpty {
            entry["arguments"] = .object(Dictionary(uniqueKeysWithValues: arguments.map { ($0.name, .object(typeEntry($0.name, $0.type))) }))
        }
        return .object(entry)
    }

    /// `name`, `type`, `isArray`, `isRequired` (`isArrayNullable` for a list) of a type as
    /// written (`[Post!]!`, `String = "x"`).
    private func typeEntry(_ name: String, _ written: String) -> [String: JSONValue] {
        var text = written.split(separator: "=", maxSplits: 1).first.map(String.init) ?? written
        text = text.trimmingCharacters(in: .whitespaces)
        let outerRequired = text.hasSuffix("!")
        if outerRequired { text.removeLast() }
        let isArray = text.hasPrefix("[") && text.hasSuffix("]")
        var elementRequired = outerRequired
        if isArray {
            text = String(text.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
            elementRequired = text.hasSuffix("!")
            if elementRequired { text.removeLast() }
        }
        var entry: [String: JSONValue] = [
            "name": .string(name), "type": typeReference(text), "isArray": .bool(isArray), "isRequired": .bool(elementRequired),
        ]
        if isArray { entry["isArrayNullable"] = .bool(!outerRequired) }
        return entry
    }

    /// A named type as the introspection refers to it: a scalar by name, else by its kind.
    private func typeReference(_ name: String) -> JSONValue {
        if model(named: name) != nil { return ["model": .string(name)] }
        if enumType(named: name) != nil { return ["enum": .string(name)] }
        if nonModel(named: name) != nil { return ["nonModel": .string(name)] }
        if inputTypes.contains(where: { $0.name == name }) { return ["input": .string(name)] }
        return .string(name)
    }
}
