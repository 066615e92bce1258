import DeltaSyncCore
import DeltaSyncGraphQL
import DeltaSyncSchema
import Foundation

/// An item of a seed file or snapshot checked against its model and completed with the sync
/// metadata a mutation would have given it, ready to store as is.
///
/// Every value must fit its field's type (the AWS scalars' formats included), required fields
/// must be there, and names the model does not have are refused rather than silently stored.
/// Missing metadata gets defaults: `_version` 1, `_deleted` false, `_lastChangedAt` now,
/// `createdAt`/`updatedAt` at `_lastChangedAt`, a tombstone's `_ttl` after the tombstone TTL.
struct FixtureItem {
    let schema: AmplifySchema
    /// Epoch milliseconds: the default `_lastChangedAt`.
    let now: Int
    /// Seconds a tombstone is kept when the item does not say (`_ttl`).
    let tombstoneTTL: Int
    /// Each model's stored fields, worked out once: a snapshot checks 100,000s of items.
    private let storedFields: [String: (list: [Field], names: Set<String>)]

    private static let metadata: Set<String> = ["_version", "_deleted", "_lastChangedAt", "_ttl", "__typename"]

    init(schema: AmplifySchema, now: Int, tombstoneTTL: Int) {
        self.schema = schema
        self.now = now
        self.tombstoneTTL = tombstoneTTL
        var storedFields: [String: (list: [Field], names: Set<String>)] = [:]
        for model in schema.models {
            let list = model.storedFields
            storedFields[model.name] = (list, Set(list.map(\.name)))
        }
        self.storedFields = storedFields
    }

    func item(_ json: JSONValue, of model: ModelSchema, at path: [JSONTextLocation.Step]) throws(FixtureValueError) -> Item {
        guard case .object(let given) = json else {
            throw FixtureValueError(path: path, reason: "expected an object with \(model.name)'s fields, got \(Self.shown(json)).")
        }
        let fields = storedFields[model.name] ?? (model.storedFields, Set(model.storedFields.map(\.name)))
        for name in given.keys where !fields.names.contains(name) && !Self.metadata.contains(name) {
            // The first unknown name in order, so the message does not depend on hashing.
            let first = given.keys.filter { !fields.names.contains($0) && !Self.metadata.contains($0) }.min() ?? name
            throw FixtureValueError(path: path + [.key(first)], reason: "\(model.name) has no stored field '\(first)'.")
        }
        var item: Item = [:]
        item.reserveCapacity(given.count + 4)
        for field in fields.list {
            guard let value = given[field.name], !value.isNull else { continue }
            item[field.name] = try checked(value, field, at: path + [.key(field.name)])
        }
        if model.primaryKey.partitionField == "id", item["id"] == nil {
            item["id"] = .string(UUID().uuidString.lowercased())
        }
        // `JSONValue` is nil-literal convertible: the readers say `.none` for "does not fit".
        let version = try metadata("_version", in: given, at: path, default: 1) { value -> JSONValue? in
            guard let number = value.intValue, number >= 1 else { return .none }
            return .int(number)
        }
        let deleted = try metadata("_deleted", in: given, at: path, default: false) { $0.boolValue.map(JSONValue.bool) }
        let changedAt = try metadata("_lastChangedAt", in: given, at: path, default: .int(now)) { value -> JSONValue? in
            guard let number = value.intValue, number >= 0 else { return .none }
            return .int(number)
        }
        if let typename = given["__typename"], typename != .string(model.name) {
            throw FixtureValueError(path: path + [.key("__typename")], reason: "expected \"\(model.name)\", got \(Self.shown(typename)).")
        }
        item["__typename"] = .string(model.name)
        item["_version"] = version
        item["_lastChangedAt"] = changedAt
        let changedMilliseconds = changedAt.intValue ?? now
        if deleted == true {
            item["_deleted"] = true
            item["_ttl"] = try metadata("_ttl", in: given, at: path, default: .int(changedMilliseconds / 1000 + tombstoneTTL)) {
                $0.intValue.map(JSONValue.int)
            }
        }
        for name in [model.timestamps.createdAt, model.timestamps.updatedAt] {
            if let name, item[name] == nil { item[name] = .string(AWSDateTimeFormat.string(fromMilliseconds: changedMilliseconds)) }
        }
        for field in fields.list where field.isRequired && item[field.name] == nil {
            throw FixtureValueError(
                path: path, reason: "\(model.name).\(field.name) is required (\(Self.typeName(field))) and missing.")
        }
        return item
    }

    private func metadata(
        _ name: String, in given: [String: JSONValue], at path: [JSONTextLocation.Step], default value: JSONValue,
        _ read: (JSONValue) -> JSONValue?
    ) throws(FixtureValueError) -> JSONValue {
        guard let given = given[name], !given.isNull else { return value }
        guard let read = read(given) else {
            let expected: String
            switch name {
            case "_version": expected = "a whole number from 1"
            case "_deleted": expected = "true or false"
            case "_lastChangedAt": expected = "epoch milliseconds, a whole number"
            default: expected = "epoch seconds, a whole number"
            }
            throw FixtureValueError(path: path + [.key(name)], reason: "expected \(expected), got \(Self.shown(given)).")
        }
        return read
    }

    /// The value as stored, or why it does not fit `field`.
    private func checked(_ value: JSONValue, _ field: Field, at path: @autoclosure () -> [JSONTextLocation.Step]) throws(FixtureValueError) -> JSONValue {
        guard field.isList else { return try element(value, field, at: path()) }
        guard case .array(let elements) = value else {
            throw FixtureValueError(path: path(), reason: "expected a list of \(field.type.graphQLName), got \(Self.shown(value)).")
        }
        var stored: [JSONValue] = []
        for (index, element) in elements.enumerated() {
            if element.isNull {
                guard !field.isListElementRequired else {
                    throw FixtureValueError(path: path() + [.index(index)], reason: "the list's elements cannot be null.")
                }
                stored.append(.null)
                continue
            }
            stored.append(try self.element(element, field, at: path() + [.index(index)]))
        }
        return .array(stored)
    }

    private func element(_ value: JSONValue, _ field: Field, at path: @autoclosure () -> [JSONTextLocation.Step]) throws(FixtureValueError) -> JSONValue {
        let fits: Bool
        var stored = value
        switch field.type {
        case .scalar(let scalar):
            switch scalar {
            case .id, .string: fits = value.stringValue != nil
            case .int, .awsTimestamp: fits = { if case .int = value { return true } else { return false } }()
            case .float: fits = value.doubleValue != nil
            case .boolean: fits = value.boolValue != nil
            case .awsJSON:
                if let text = value.stringValue {
                    fits = (try? JSONValue(parsing: text)) != nil
                } else {
                    stored = .string(value.jsonText)
                    fits = true
                }
            default: fits = value.stringValue.map { AWSScalars.isValid($0, as: scalar) } ?? false
            }
        case .enumType(let name):
            let values = schema.enumType(named: name)?.values ?? []
            guard let text = value.stringValue, values.contains(text) else {
                throw FixtureValueError(
                    path: path(), reason: "expected one of \(name)'s values (\(values.joined(separator: ", "))), got \(Self.shown(value)).")
            }
            fits = true
        case .nonModel(let name):
            guard case .object(let object) = value, let type = schema.nonModel(named: name) else {
                throw FixtureValueError(path: path(), reason: "expected a \(name) object, got \(Self.shown(value)).")
            }
            let names = Set(type.fields.map(\.name))
            for key in object.keys.sorted() where !names.contains(key) && key != "__typename" {
                throw FixtureValueError(path: path() + [.key(key)], reason: "\(name) has no field '\(key)'.")
            }
            var nested: Item = [:]
            for inner in type.fields {
                guard let innerValue = object[inner.name], !innerValue.isNull else {
                    if inner.isRequired {
                        throw FixtureValueError(path: path(), reason: "\(name).\(inner.name) is required and missing.")
                    }
                    continue
                }
                nested[inner.name] = try checked(innerValue, inner, at: path() + [.key(inner.name)])
            }
            return .object(nested)
        case .model(let name):
            throw FixtureValueError(path: path(), reason: "\(name) objects are not stored in \(field.name); seed the \(name) items themselves.")
        }
        guard fits else {
            throw FixtureValueError(path: path(), reason: "expected \(Self.typeName(field)), got \(Self.shown(value)).")
        }
        return stored
    }

    private static func typeName(_ field: Field) -> String {
        let name = field.type.graphQLName
        return field.isList ? "a list of \(name)" : "a\(name.first.map { "AEIOU".contains($0) } == true ? "n" : "") \(name)"
    }

    private static func shown(_ value: JSONValue) -> String {
        let text = value.jsonText
        return text.count > 60 ? String(text.prefix(57)) + "..." : text
    }
}
