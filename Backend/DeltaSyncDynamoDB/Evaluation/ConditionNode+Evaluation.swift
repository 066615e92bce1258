import DeltaSyncCore

/// Conditions against an item with DynamoDB's rules: a comparison with a missing attribute or
/// between values of different types is false (`<>` is true), numbers compare by value,
/// strings by their UTF-8 bytes.
extension ConditionNode {
    func holds(on item: Item) -> Bool {
        switch self {
        case .compare(let left, let comparator, let right):
            return Self.compare(left.value(in: item), comparator, right.value(in: item))
        case .between(let subject, let low, let high):
            guard let value = subject.value(in: item), let low = low.value(in: item), let high = high.value(in: item),
                let above = ValueComparison.order(value, low), let below = ValueComparison.order(value, high)
            else { return false }
            return above >= 0 && below <= 0
        case .in(let subject, let options):
            guard let value = subject.value(in: item) else { return false }
            return options.contains { $0.value(in: item).map { ValueComparison.equal(value, $0) } ?? false }
        case .attributeExists(let path): return ItemPath.value(at: path, in: item) != nil
        case .attributeNotExists(let path): return ItemPath.value(at: path, in: item) == nil
        case .attributeType(let path, let type):
            guard let found = ItemPath.value(at: path, in: item), case .string(let code)? = type.value(in: item) else { return false }
            return Self.hasType(AttributeValue(plain: found), code)
        case .beginsWith(let subject, let prefix):
            guard let value = subject.value(in: item), let prefix = prefix.value(in: item) else { return false }
            return Self.beginsWith(value, prefix)
        case .contains(let subject, let element):
            guard let value = subject.value(in: item), let element = element.value(in: item) else { return false }
            return Self.contains(value, element)
        case .not(let inner): return !inner.holds(on: item)
        case .and(let left, let right): return left.holds(on: item) && right.holds(on: item)
        case .or(let left, let right): return left.holds(on: item) || right.holds(on: item)
        }
    }

    static func compare(_ left: AttributeValue?, _ comparator: Comparator, _ right: AttributeValue?) -> Bool {
        guard let left, let right else { return comparator == .notEqual }
        switch comparator {
        case .equal: return ValueComparison.equal(left, right)
        case .notEqual: return !ValueComparison.equal(left, right)
        case .less: return ValueComparison.order(left, right).map { $0 < 0 } ?? false
        case .lessOrEqual: return ValueComparison.order(left, right).map { $0 <= 0 } ?? false
        case .greater: return ValueComparison.order(left, right).map { $0 > 0 } ?? false
        case .greaterOrEqual: return ValueComparison.order(left, right).map { $0 >= 0 } ?? false
        }
    }

    /// `attribute_type`: a stored list also passes as a set type when its elements could make
    /// one, since items keep sets as lists.
    private static func hasType(_ value: AttributeValue, _ code: String) -> Bool {
        if value.typeName == code { return true }
        guard case .list(let elements) = value, ["SS", "NS", "BS"].contains(code), !elements.isEmpty else { return false }
        return elements.allSatisfy { ValueComparison.fits($0, in: code) } && Set(elements).count == elements.count
    }

    static func beginsWith(_ value: AttributeValue, _ prefix: AttributeValue) -> Bool {
        switch (value, prefix) {
        case (.string(let text), .string(let start)):
            return text.utf8.starts(with: start.utf8)
        case (.binary(let text), .binary(let start)), (.string(let text), .binary(let start)):
            guard let bytes = ValueComparison.bytes(text), let startBytes = ValueComparison.bytes(start) else { return false }
            return bytes.starts(with: startBytes)
        default:
            return false
        }
    }

    private static func contains(_ value: AttributeValue, _ element: AttributeValue) -> Bool {
        switch (value, element) {
        case (.string(let text), .string(let part)):
            return part.isEmpty || text.utf8.firstRange(of: part.utf8) != nil
        case (.list(let elements), _):
            return elements.contains { ValueComparison.equal($0, element) }
        default:
            return value.setElements?.contains { ValueComparison.equal($0, element) } ?? false
        }
    }
}

extension ExpressionOperand {
    /// The operand's value in a condition; `nil` for a missing attribute, or `size` of a
    /// value that has none.
    func value(in item: Item) -> AttributeValue? {
        switch self {
        case .path(let path): return ItemPath.value(at: path, in: item).map(AttributeValue.init(plain:))
        case .value(let value): return value
        case .size(let path):
            guard let found = ItemPath.value(at: path, in: item) else { return nil }
            switch found {
            case .string(let text): return .number(DynamoDBNumber(text.utf8.count))
            case .array(let elements): return .number(DynamoDBNumber(elements.count))
            case .object(let members): return .number(DynamoDBNumber(members.count))
            default: return nil
            }
        case .ifNotExists, .listAppend, .plus, .minus:
            // Update-only operands; the parser never puts them in a condition.
            return try? updateValue(in: item)
        }
    }
}
