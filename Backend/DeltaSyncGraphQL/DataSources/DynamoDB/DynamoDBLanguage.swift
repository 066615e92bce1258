import DeltaSyncCore
import DeltaSyncDynamoDB
import DeltaSyncSchema
import DeltaSyncStorage

/// The parts of a DynamoDB request the data source reads, made ready to run with
/// `DeltaSyncDynamoDB`'s language: typed values as plain items, `condition`/`filter` objects as
/// predicates, `update` as a function of the item, `query` as the store's index access,
/// `projection` as a function that keeps paths. Each object's `expressionNames` and
/// `expressionValues` must all be used by its expression, as DynamoDB requires.
enum DynamoDBLanguage {
    /// A typed map (`key`, `attributeValues`) as a plain item; with `allowNull`, null attributes
    /// are left out, as the store keeps no nulls.
    static func plainItem(_ typed: JSONValue, what: String, allowNull: Bool = false) throws(DataSourceFailure) -> Item {
        let item: Item
        do {
            item = try AttributeValue.plainItem(fromTyped: typed, what: what)
        } catch {
            throw DataSourceFailure(error)
        }
        guard !allowNull else { return item.filter { !$0.value.isNull } }
        guard !item.values.contains(where: \.isNull) else {
            throw .validation("One or more parameter values were invalid: the \(what) holds a null")
        }
        return item
    }

    /// A `condition` or `filter` object as a predicate; `nil` without one.
    static func condition(_ object: JSONValue, what: String) throws(DataSourceFailure) -> (@Sendable (Item) -> Bool)? {
        if object.isNull { return nil }
        do {
            let condition = try ConditionExpression(request: object, kind: what == "FilterExpression" ? .filter : .condition)
            try ExpressionAttributes(request: object).checkAllUsed(by: [condition.placeholders])
            return { item in condition.evaluate(item) }
        } catch {
            throw DataSourceFailure(error)
        }
    }

    /// An `update` object as a function of the stored item.
    ///
    /// - Throws: ``DataSourceFailure`` when it writes a key attribute or cannot be read.
    static func update(_ object: JSONValue, keyAttributes: Set<String>) throws(DataSourceFailure) -> @Sendable (Item) throws -> Item {
        let update: UpdateExpression
        do {
            update = try UpdateExpression(request: object)
            try ExpressionAttributes(request: object).checkAllUsed(by: [update.placeholders])
            try update.checkKeyAttributes(keyAttributes)
        } catch {
            throw DataSourceFailure(error)
        }
        return { item throws(DataSourceFailure) in
            do throws(DynamoDBError) {
                return try update.apply(to: item)
            } catch {
                throw DataSourceFailure(error)
            }
        }
    }

    /// A `projection` object as a function that keeps its paths; `nil` without one.
    static func projection(_ object: JSONValue) throws(DataSourceFailure) -> (@Sendable (Item) -> Item)? {
        if object.isNull { return nil }
        do {
            let projection = try ProjectionExpression(request: object)
            try ExpressionAttributes(request: object).checkAllUsed(by: [projection.placeholders])
            return { item in projection.apply(to: item) }
        } catch {
            throw DataSourceFailure(error)
        }
    }

    /// A `query` object's key condition as the store reads an index: the partition value and the
    /// sort key condition, on `partition` and `sort` (a composite sort key is the attribute
    /// `a#b` with values `x#y`, as Amplify writes them).
    static func keyCondition(
        _ object: JSONValue, partition: String, sort: [String], model: ModelSchema
    ) throws(DataSourceFailure) -> (partition: JSONValue, sortKey: DeltaSyncStorage.SortKeyCondition?) {
        let condition: KeyCondition
        do {
            let expression = try KeyConditionExpression(request: object)
            try ExpressionAttributes(request: object).checkAllUsed(by: [expression.placeholders])
            condition = try expression.keyCondition(partitionKey: partition, sortKey: sort.isEmpty ? nil : sort.joined(separator: "#"))
        } catch {
            throw DataSourceFailure(error)
        }
        guard let predicate = condition.sortKey?.predicate else { return (condition.partitionValue.plainValue, nil) }
        func values(_ value: AttributeValue) -> [JSONValue] { sortValues(value.plainValue, fields: sort, model: model) }
        let sortKey: DeltaSyncStorage.SortKeyCondition
        switch predicate {
        case .equal(let value): sortKey = .eq(values(value))
        case .less(let value): sortKey = .lt(values(value))
        case .lessOrEqual(let value): sortKey = .le(values(value))
        case .greater(let value): sortKey = .gt(values(value))
        case .greaterOrEqual(let value): sortKey = .ge(values(value))
        case .between(let low, let high): sortKey = .between(values(low), values(high))
        case .beginsWith(let prefix): sortKey = .beginsWith(values(prefix))
        }
        return (condition.partitionValue.plainValue, sortKey)
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
}

extension DataSourceFailure {
    /// A request DynamoDB refuses, as AppSync reports it (`DynamoDB:DynamoDbException`, the
    /// SDK's suffix on the message).
    init(_ error: DynamoDBError) {
        let shown = error.appSyncError()
        self.init(type: shown.errorType.rawValue, message: shown.message)
    }

    /// A request DynamoDB refuses, with its message.
    static func validation(_ message: String) -> DataSourceFailure {
        DataSourceFailure(DynamoDBError.validation(message))
    }
}
