import DeltaSyncCore

/// Conditions and operands evaluated against an item, with DynamoDB's rules: a comparison of
/// values of different types, or with a missing attribute, is false (`<>` is true), numbers
/// compare by value and strings by their UTF-8 bytes.
enum DynamoDBEvaluation {
    static func holds(_ condition: DynamoDBCondition, on item: Item) -> Bool {
        switch condition {
        case .compare(let left, let comparator, let right):
            return compare(value(left, item), comparator, value(right, item))
        case .between(let subject, let low, let high):
            let value = value(subject, item)
            return compare(value, .greaterOrEqual, self.value(low, item)) && compare(value, .lessOrEqual, self.value(high, item))
        case .oneOf(let subject, let options):
            let value = value(subject, item)
            return options.contains { compare(value, .equal, self.value($0, item)) }
        case .attributeExists(let path): return resolve(path, in: item) != nil
        case .attributeNotExists(let path): return resolve(path, in: item) == nil
        case .attributeType(let path, let type):
            guard let found = resolve(path, in: item), case .string(let code)? = value(type, item) else { return false }
            return typeCode(found) == code || (code.hasSuffix("S") && code.count == 2 && typeCode(found) == "L")
        case .beginsWith(let subject, let prefix):
            guard case .string(let text)? = value(subject, item), case .string(let start)? = value(prefix, item) else { return false }
            return text.utf8.starts(with: start.utf8)
        case .contains(let subject, let element):
            guard let element = value(element, item) else { return false }
            switch value(subject, item) {
            case .string(let text)?: return element.stringValue.map { text.contains($0) } ?? false
            case .array(let elements)?: return elements.contains(element)
            default: return false
            }
        case .not(let inner): return !holds(inner, on: item)
        case .and(let left, let right): return holds(left, on: item) && holds(right, on: item)
        case .or(let left, let right): return holds(left, on: item) || holds(right, on: item)
        }
    }

    /// An operand's value; `nil` for a missing attribute.
    static func value(_ operand: DynamoDBOperand, _ item: Item) -> JSONValue? {
        switch operand {
        case .path(let path): return resolve(path, in: item)
        case .value(let value): return value
        case .size(let path):
            switch resolve(path, in: item) {
            case .string(let text)?: return .int(text.utf8.count)
            case .array(let elements)?: return .int(elements.count)
            case .object(let map)?: return .int(map.count)
            default: return nil
            }
        case .ifNotExists(let path, let fallback): return resolve(path, in: item) ?? value(fallback, item)
        case .listAppend(let first, let second):
            guard case .array(let a)? = value(first, item), case .array(let b)? = value(second, item) else { return nil }
            return .array(a + b)
        case .plus(let left, let right), .minus(let left, let right):
            guard let a = value(left, item), let b = value(right, item), a.doubleValue != nil, b.doubleValue != nil else { return nil }
            if case .plus = operand { return add(a, b, sign: 1) }
            return add(a, b, sign: -1)
        }
    }

    /// `a + sign * b`, an integer when both are.
    static func add(_ a: JSONValue, _ b: JSONValue, sign: Int) -> JSONValue {
        if case .int(let x) = a, case .int(let y) = b {
            let (sum, overflow) = x.addingReportingOverflow(sign * y)
            if !overflow { return .int(sum) }
        }
        return .double(a.doubleValue! + Double(sign) * b.doubleValue!)
    }

    static func resolve(_ path: DynamoDBPath, in item: Item) -> JSONValue? {
        var current: JSONValue = .object(item)
        for element in path {
            switch (element, current) {
            case (.name(let name), .object(let map)):
                guard let next = map[name] else { return nil }
                current = next
            case (.index(let index), .array(let elements)):
                guard elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    private static func compare(_ left: JSONValue?, _ comparator: DynamoDBCondition.Comparator, _ right: JSONValue?) -> Bool {
        guard let left, let right else { return comparator == .notEqual }
        let order: Int?
        switch (left, right) {
        case (.string(let a), .string(let b)): order = a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : (a == b ? 0 : 1)
        case _ where left.doubleValue != nil && right.doubleValue != nil:
            let a = left.doubleValue!, b = right.doubleValue!
            order = a < b ? -1 : (a == b ? 0 : 1)
        default:
            order = nil
        }
        switch comparator {
        case .equal: return order.map { $0 == 0 } ?? (left == right)
        case .notEqual: return order.map { $0 != 0 } ?? (left != right)
        case .less: return order.map { $0 < 0 } ?? false
        case .lessOrEqual: return order.map { $0 <= 0 } ?? false
        case .greater: return order.map { $0 > 0 } ?? false
        case .greaterOrEqual: return order.map { $0 >= 0 } ?? false
        }
    }

    /// `attribute_type`'s code of a plain value (sets are lists here).
    static func typeCode(_ value: JSONValue) -> String {
        switch value {
        case .string: return "S"
        case .int, .double: return "N"
        case .bool: return "BOOL"
        case .null: return "NULL"
        case .array: return "L"
        case .object: return "M"
        }
    }
}
