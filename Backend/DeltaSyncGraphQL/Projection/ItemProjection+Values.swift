import DeltaSyncCore
import DeltaSyncSchema
import GraphQL
import OrderedCollections

/// Stored values other than plain scalars, as the executor would serialise them: floats and
/// non-model objects.
extension ItemProjection {
    /// `value` of `field`; `nil` when it is null because of a failure (recorded in `failures`,
    /// paths relative to the value). A plan that does not complete (error data) writes a
    /// missing value as `null`.
    func value(
        _ value: JSONValue, of field: DeltaSyncSchema.Field, subFields: [GraphQL.Field]?, plan: ItemPlan,
        parent: String? = nil, failures: inout [ProjectionFailure]
    ) -> Map? {
        let parent = parent ?? plan.typeName
        if value.isNull {
            guard field.isRequired, plan.completes else { return .null }
            failures.append(ProjectionFailure(.nullInNonNull(type: ItemPlan.typeName(field), parent: parent)))
            return nil
        }
        func unserializable() -> Map? {
            failures.append(ProjectionFailure(.unserializable(value, type: ItemPlan.typeName(field))))
            return nil
        }
        switch field.type {
        case .nonModel(let typeName):
            guard let subFields, let type = schema.nonModel(named: typeName) else { return unserializable() }
            guard field.isList else { return nonModel(value, type: type, fields: subFields, plan: plan, failures: &failures) }
            guard let elements = value.arrayValue else { return unserializable() }
            var out: [Map] = []
            for (n, element) in elements.enumerated() {
                let mark = failures.count
                let projected = element.isNull ? nil : nonModel(element, type: type, fields: subFields, plan: plan, failures: &failures)
                failures.place(from: mark, within: .index(n))
                if projected == nil, field.isListElementRequired, plan.completes {
                    if element.isNull {
                        var failure = ProjectionFailure(.nullInNonNull(type: typeName, parent: parent))
                        failure.within(.index(n))
                        failures.append(failure)
                    }
                    return nil
                }
                out.append(projected ?? .null)
            }
            return .array(out)
        case .scalar(.float):
            if field.isList {
                guard let elements = value.arrayValue else { return unserializable() }
                return .array(elements.map { $0.doubleValue.map(Map.double) ?? .null })
            }
            guard let double = value.doubleValue else { return unserializable() }
            return .double(double)
        case .scalar, .enumType:
            return value.map
        case .model:
            return unserializable()
        }
    }

    /// A non-model object; `nil` when a non-null field of it had no value.
    private func nonModel(
        _ value: JSONValue, type: NonModelType, fields: [GraphQL.Field], plan: ItemPlan, failures: inout [ProjectionFailure]
    ) -> Map? {
        guard let object = value.objectValue else {
            failures.append(ProjectionFailure(.unserializable(value, type: type.name)))
            return nil
        }
        var out = OrderedDictionary<String, Map>()
        for field in fields {
            let key = field.alias?.value ?? field.name.value
            if field.name.value == "__typename" {
                out[key] = .string(type.name)
                continue
            }
            // Validation ensures the field exists; the plan ensures keys are not repeated.
            guard let schemaField = type.fields.first(where: { $0.name == field.name.value }) else { continue }
            let mark = failures.count
            let projected = self.value(
                object[field.name.value] ?? .null, of: schemaField, subFields: plan.subFields(of: field), plan: plan,
                parent: type.name, failures: &failures)
            failures.place(from: mark, within: .key(key))
            guard let projected else {
                if schemaField.isRequired, plan.completes { return nil }
                out[key] = .null
                continue
            }
            out[key] = projected
        }
        return .dictionary(out)
    }
}
