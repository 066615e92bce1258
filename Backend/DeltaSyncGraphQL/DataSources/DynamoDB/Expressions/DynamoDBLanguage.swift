import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage

/// The parts of a DynamoDB request the data source reads, made ready to run: typed values as
/// plain items, `condition`/`filter` objects as predicates, `update` as a function of the
/// item, `query` as the store's index access, `projection` as a function that keeps paths.
enum DynamoDBLanguage {
    /// A typed map (`key`, `attributeValues`) as a plain item; null attributes are left out, as
    /// the store keeps no nulls.
    static func plainItem(_ typed: JSONValue, what: String, allowNull: Bool = false) throws(DataSourceFailure) -> Item {
        guard case .object(let map) = typed else {
            throw .validation("'\(what)' must be a map of attribute names to typed values, not \(typed.jsonText)")
        }
        let item = try DynamoDBAttributeValue.item(map)
        guard !allowNull else { return item.filter { !$0.value.isNull } }
        guard !item.values.contains(where: \.isNull) else {
            throw .validation("One or more parameter values were invalid: the \(what) holds a null")
        }
        return item
    }

    /// A `condition` or `filter` object (`expression`, `expressionNames`, `expressionValues`);
    /// `nil` without one.
    static func condition(_ object: JSONValue, what: String) throws(DataSourceFailure) -> (@Sendable (Item) -> Bool)? {
        if object.isNull { return nil }
        var parser = try parser(object, kind: what)
        let condition = try parser.condition()
        return { item in DynamoDBEvaluation.holds(condition, on: item) }
    }

    /// An `update` object as a function of the stored item.
    ///
    /// - Throws: ``DataSourceFailure`` when it writes a key attribute or the same path twice.
    static func update(_ object: JSONValue, keyAttributes: Set<String>) throws(DataSourceFailure) -> @Sendable (Item) throws -> Item {
        var parser = try parser(object, kind: "UpdateExpression")
        let update = try parser.update()
        var seen: Set<String> = []
        for path in update.paths {
            if case .name(let name)? = path.first, path.count == 1, keyAttributes.contains(name) {
                throw .validation("One or more parameter values were invalid: Cannot update attribute \(name). This attribute is part of the key")
            }
            let text = path.map { element -> String in
                switch element {
                case .name(let name): return "." + name
                case .index(let index): return "[\(index)]"
                }
            }.joined()
            guard seen.insert(text).inserted else {
                throw .validation("Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [\(text)]")
            }
        }
        return { item in try update.apply(to: item) }
    }

    /// A `projection` object as a function that keeps its paths; `nil` without one.
    static func projection(_ object: JSONValue) throws(DataSourceFailure) -> (@Sendable (Item) -> Item)? {
        if object.isNull { return nil }
        var parser = try parser(object, kind: "ProjectionExpression")
        let paths = try parser.projection()
        return { item in
            var kept: Item = [:]
            for path in paths {
                guard case .name(let name)? = path.first, let value = item[name] else { continue }
                // Nested paths keep their whole top-level attribute.
                kept[name] = value
            }
            return kept
        }
    }

    /// A `query` object's key condition as the store reads an index: the partition value and the
    /// sort key condition, on `partition` and `sort` (a composite sort key is the attribute
    /// `a#b` with values `x#y`, as Amplify writes them).
    static func keyCondition(
        _ object: JSONValue, partition: String, sort: [String], model: ModelSchema
    ) throws(DataSourceFailure) -> (partition: JSONValue, sortKey: SortKeyCondition?) {
        var parser = try parser(object, kind: "KeyConditionExpression")
        var terms: [DynamoDBCondition] = []
        func flatten(_ condition: DynamoDBCondition) {
            if case .and(let left, let right) = condition { flatten(left); flatten(right) } else { terms.append(condition) }
        }
        flatten(try parser.condition())
        let sortName = sort.joined(separator: "#")
        var partitionValue: JSONValue?
        var sortKey: SortKeyCondition?
        for term in terms {
            switch term {
            case .compare(.path(let path), .equal, .value(let value)) where path == [.name(partition)] && partitionValue == nil:
                partitionValue = value
            case .compare(.path(let path), let comparator, .value(let value)) where path == [.name(sortName)] && sortKey == nil && comparator != .notEqual:
                let values = sortValues(value, fields: sort, model: model)
                switch comparator {
                case .equal: sortKey = .eq(values)
                case .less: sortKey = .lt(values)
                case .lessOrEqual: sortKey = .le(values)
                case .greater: sortKey = .gt(values)
                default: sortKey = .ge(values)
                }
            case .between(.path(let path), .value(let low), .value(let high)) where path == [.name(sortName)] && sortKey == nil:
                sortKey = .between(sortValues(low, fields: sort, model: model), sortValues(high, fields: sort, model: model))
            case .beginsWith(.path(let path), .value(let prefix)) where path == [.name(sortName)] && sortKey == nil:
                sortKey = .beginsWith(sortValues(prefix, fields: sort, model: model))
            default:
                throw .validation("Query key condition not supported: the key condition names \(partition) with = and at most one condition on \(sortName.isEmpty ? "no sort key" : sortName)")
            }
        }
        guard let partitionValue else {
            throw .validation("Query condition missed key schema element: \(partition)")
        }
        return (partitionValue, sortKey)
    }

    /// A sort key value as the store's values of the sort key fields.
    private static func sortValues(_ value: JSONValue, fields: [String], model: ModelSchema) -> [JSONValue] {
        guard fields.count > 1, case .string(let text) = value else { return [value] }
        return zip(text.components(separatedBy: "#"), fields).map { part, field in
            switch model.fields.first(where: { $0.name == field })?.type {
            case .scalar(.int)?: return Int(part).map(JSONValue.int) ?? .string(part)
            case .scalar(.float)?: return Double(part).map(JSONValue.double) ?? .string(part)
            default: return .string(part)
            }
        }
    }

    private static func parser(_ object: JSONValue, kind: String) throws(DataSourceFailure) -> DynamoDBExpressionParser {
        guard let expression = object["expression"].stringValue else {
            throw .validation("A \(kind) needs an 'expression' string.")
        }
        return try DynamoDBExpressionParser(
            expression, kind: kind, names: object["expressionNames"].objectValue ?? [:], values: object["expressionValues"].objectValue ?? [:])
    }
}
