import OrderedCollections

/// Amplify's filter and condition input (`{"title": {"beginsWith": "a"}, "or": [...],
/// "not": {...}}`) as a DynamoDB expression with `#name` and `:value` placeholders, for
/// `$util.transform.toDynamoDBFilterExpression` and `toDynamoDBConditionExpression`.
///
/// Conditions of one map are ANDed, `and`/`or` lists join their maps' conditions, `not`
/// negates its map's. A value placeholder is the path to its operator (`:or_1_title_eq`), as
/// AppSync's documented `:title_contains` is; `in` becomes DynamoDB's `IN (...)` with one
/// placeholder per value, and `attributeExists` takes no value.
struct VTLFilterExpression {
    private(set) var names: OrderedDictionary<String, VTLValue> = [:]
    private(set) var values: OrderedDictionary<String, VTLValue> = [:]
    private let fail: (String) -> VTLUtilFailure

    /// DynamoDB's comparison for Amplify's operator (`eq` is `=`).
    static func comparison(_ op: String) -> String? {
        switch op {
        case "eq": return "="
        case "ne": return "<>"
        case "lt": return "<"
        case "le": return "<="
        case "gt": return ">"
        case "ge": return ">="
        default: return nil
        }
    }

    /// DynamoDB's function for Amplify's operator (`beginsWith` is `begins_with`).
    static func function(_ op: String) -> String? {
        switch op {
        case "contains": return "contains"
        case "notContains": return "NOT contains"
        case "beginsWith": return "begins_with"
        default: return nil
        }
    }
    /// Amplify's `ModelAttributeTypes` to DynamoDB's type codes; codes pass as they are.
    static let attributeTypes = [
        "binary": "B", "binarySet": "BS", "bool": "BOOL", "list": "L", "map": "M", "number": "N",
        "numberSet": "NS", "string": "S", "stringSet": "SS", "_null": "NULL",
    ]

    /// `filter`'s expression map: `{"expression", "expressionNames", "expressionValues"}`.
    static func expression(of filter: VTLValue, fail: @escaping (String) -> VTLUtilFailure) throws -> VTLValue {
        var builder = VTLFilterExpression(fail: fail)
        let expression = try builder.conditions(filter, path: "").joined(separator: " AND ")
        return .map(VTLMap(OrderedDictionary(
            uncheckedUniqueKeys: ["expression", "expressionNames", "expressionValues"],
            values: [.string(expression), .map(VTLMap(builder.names)), .map(VTLMap(builder.values))])))
    }

    private init(fail: @escaping (String) -> VTLUtilFailure) {
        self.fail = fail
    }

    /// `path` and `name` joined with `_`, as placeholders join the path to an operator.
    private static func joined(_ path: String, _ name: String) -> String {
        path.isEmpty ? name : path + "_" + name
    }

    /// The conditions of one filter map, to be ANDed; a null filter has none. `path` is the
    /// way to it (`and_0`), as its placeholders name it.
    private mutating func conditions(_ filter: VTLValue, path: String) throws -> [String] {
        if filter.isNull { return [] }
        guard case .map(let map) = filter else { throw fail("a filter must be a map, not a \(filter.typeName)") }
        var parts: [String] = []
        for (key, value) in map.entries where !value.isNull {
            switch key {
            case "and", "or":
                let joiner = key.uppercased()
                guard case .list(let list) = value else {
                    parts += try conditions(value, path: Self.joined(path, key))
                    continue
                }
                var members: [String] = []
                for (offset, member) in list.items.enumerated() {
                    if let group = Self.group(try conditions(member, path: Self.joined(Self.joined(path, key), String(offset))), "AND") {
                        members.append(group)
                    }
                }
                if let group = Self.group(members, joiner) { parts.append(group) }
            case "not":
                let inner = try conditions(value, path: Self.joined(path, "not"))
                if !inner.isEmpty { parts.append("NOT (" + inner.joined(separator: " AND ") + ")") }
            default:
                guard case .map(let operators) = value else { throw fail("the filter of '\(key)' must be a map of operators, as {\"eq\": ...}") }
                if let group = Self.group(try field(key, operators, path: path), "AND") { parts.append(group) }
            }
        }
        return parts
    }

    /// `(a OR b)`, or `a` alone; `nil` for nothing.
    private static func group(_ parts: [String], _ joiner: String) -> String? {
        if parts.count < 2 { return parts.first }
        return "(" + parts.joined(separator: " \(joiner) ") + ")"
    }

    private mutating func field(_ field: String, _ operators: VTLMap, path: String) throws -> [String] {
        let name = "#" + Self.placeholder(field)
        names[name] = .string(field)
        var parts: [String] = []
        for (op, operand) in operators.entries where !operand.isNull {
            let placeholder = ":" + Self.placeholder(Self.joined(Self.joined(path, field), op))
            if let comparison = Self.comparison(op) {
                parts.append("\(name) \(comparison) \(value(placeholder, operand))")
            } else if let function = Self.function(op) {
                parts.append("\(function)(\(name), \(value(placeholder, operand)))")
            } else {
                switch op {
                case "between":
                    parts.append("\(name) BETWEEN \(try bounds(placeholder, operand, op))")
                case "attributeExists":
                    parts.append((operand.isTrue ? "attribute_exists(" : "attribute_not_exists(") + name + ")")
                case "attributeType":
                    let code = Self.attributeTypes[operand.rendered] ?? operand.rendered
                    parts.append("attribute_type(\(name), \(value(placeholder, .string(code))))")
                case "size":
                    parts += try size(name, operand, placeholder)
                case "in":
                    guard case .list(let list) = operand, !list.items.isEmpty else { throw fail("'in' of '\(field)' needs a list of at least one value") }
                    let placeholders = list.items.enumerated().map { value(placeholder + "_\($0.offset)", $0.element) }
                    parts.append("\(name) IN (\(placeholders.joined(separator: ", ")))")
                default:
                    throw fail("'\(op)' of '\(field)' is no filter operator (eq ne le lt ge gt contains notContains between beginsWith attributeExists attributeType size in)")
                }
            }
        }
        return parts
    }

    /// `size(#f) > :f_size_gt` for each operator of a `size` map.
    private mutating func size(_ name: String, _ operand: VTLValue, _ placeholder: String) throws -> [String] {
        guard case .map(let operators) = operand else { throw fail("'size' takes a map of operators, as {\"gt\": 3}") }
        var parts: [String] = []
        for (op, bound) in operators.entries where !bound.isNull {
            if let comparison = Self.comparison(op) {
                parts.append("size(\(name)) \(comparison) \(value(placeholder + "_\(op)", bound))")
            } else if op == "between" {
                parts.append("size(\(name)) BETWEEN \(try bounds(placeholder + "_between", bound, op))")
            } else {
                throw fail("'\(op)' is no operator of 'size' (eq ne le lt ge gt between)")
            }
        }
        return parts
    }

    /// `:p_1 AND :p_2` for `between: [low, high]`.
    private mutating func bounds(_ placeholder: String, _ operand: VTLValue, _ op: String) throws -> String {
        guard case .list(let list) = operand, list.items.count == 2 else { throw fail("'\(op)' takes a list of two values, [low, high]") }
        return value(placeholder + "_1", list.items[0]) + " AND " + value(placeholder + "_2", list.items[1])
    }

    private mutating func value(_ placeholder: String, _ value: VTLValue) -> String {
        values[placeholder] = VTLUtil.typedValue(value.copied)
        return placeholder
    }

    /// A placeholder's name: letters, digits and `_` only, as DynamoDB requires.
    private static func placeholder(_ text: String) -> String {
        // Names are mostly such characters already: checked on the bytes, kept as they are.
        let allowed = text.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
        }
        if allowed { return text }
        return String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") ? $0 : "_" })
    }
}
