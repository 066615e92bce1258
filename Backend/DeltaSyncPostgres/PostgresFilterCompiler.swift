import DeltaSyncCore

/// Compiles a ``QueryPredicate`` to a parameterised SQL expression over a model table's `item`
/// jsonb that is true exactly for the items ``QueryPredicate/matches(_:)`` accepts (the port of
/// the SQLite store's `FilterCompiler`, on jsonb instead of typed columns).
///
/// Every expression is true or false, never NULL, so `NOT` and `OR` compose like Swift's
/// Booleans and a missing attribute behaves as in DynamoDB. Values of different JSON types never
/// compare: each comparison first tests `jsonb_typeof`, inside `CASE WHEN … THEN … ELSE false
/// END`, which (unlike `AND`) PostgreSQL guarantees not to evaluate past a false test, so a
/// cast such as `::numeric` never sees a string. Strings compare in the `C` collation (UTF-8
/// bytes, as DynamoDB).
///
/// ``compile(_:)`` returns `nil` for what it cannot say in SQL (a string holding U+0000, which
/// PostgreSQL cannot bind); the store then evaluates the filter in memory with
/// ``QueryPredicate/matches(_:)`` on the page's rows, which returns the same items: the filter
/// never changes which rows a page reads, only which of them it returns.
struct PostgresFilterCompiler {
    let table: PostgresModelTable

    struct Uncompilable: Error {}

    func compile(_ predicate: QueryPredicate, _ builder: inout SQLBuilder) -> String? {
        var scratch = builder
        do {
            let sql = try expression(predicate, &scratch)
            builder = scratch
            return sql
        } catch {
            return nil
        }
    }

    private func expression(_ predicate: QueryPredicate, _ b: inout SQLBuilder) throws -> String {
        switch predicate {
        case .all: return "true"
        case .and(let parts): return parts.isEmpty ? "true" : "(" + (try parts.map { try expression($0, &b) }).joined(separator: " AND ") + ")"
        case .or(let parts): return parts.isEmpty ? "false" : "(" + (try parts.map { try expression($0, &b) }).joined(separator: " OR ") + ")"
        case .not(let inner): return "(NOT \(try expression(inner, &b)))"
        case .field(let name, let op):
            // An unknown field reads as a missing attribute (the store keeps only known fields).
            let operand = table.columnIndex[name] != nil ? Operand.field(name) : Operand.missing
            return try compile(op, on: operand, &b)
        }
    }

    // MARK: - Operators

    private func compile(_ op: FieldOperator, on x: Operand, _ b: inout SQLBuilder) throws -> String {
        switch op {
        case .eq(let v): return v.isNull ? x.isNull : try equals(x, v, &b)
        case .ne(let v): return "(NOT \(v.isNull ? x.isNull : try equals(x, v, &b)))"
        case .lt(let v): return try ordered(x, "<", v, &b)
        case .le(let v): return try ordered(x, "<=", v, &b)
        case .gt(let v): return try ordered(x, ">", v, &b)
        case .ge(let v): return try ordered(x, ">=", v, &b)
        case .between(let lo, let hi): return try between(x, lo, hi, &b)
        case .contains(let v): return try contains(x, v, &b)
        case .notContains(let v): return "(NOT \(try contains(x, v, &b)))"
        case .beginsWith(let prefix):
            guard let side = x.families[.string] else { return "false" }
            return when(side.test, "starts_with(\(side.value), \(try text(prefix, &b)))")
        case .attributeExists(let exists): return exists ? "(NOT \(x.isNull))" : x.isNull
        case .attributeType(let name):
            if name == "_null" { return x.isNull }
            guard let family = ValueFamily(typeName: name), let side = x.families[family] else { return "false" }
            return side.test
        case .size(let inner):
            let parts = try ValueFamily.allCases.compactMap { family -> String? in
                guard let side = x.families[family], let size = x.sizes[family] else { return nil }
                return when(side.test, try compile(inner, on: .size(size), &b))
            }
            return parts.isEmpty ? "false" : "(" + parts.joined(separator: " OR ") + ")"
        case .in(let list):
            let parts = try list.filter { !$0.isNull }.map { try equals(x, $0, &b) }
            return parts.isEmpty ? "false" : "(" + parts.joined(separator: " OR ") + ")"
        case .notIn(let list):
            let parts = try list.filter { !$0.isNull }.map { try equals(x, $0, &b) }
            return parts.isEmpty ? "true" : "(NOT (" + parts.joined(separator: " OR ") + "))"
        }
    }

    private func when(_ test: String, _ then: String) -> String {
        "(CASE WHEN \(test) THEN \(then) ELSE false END)"
    }

    /// `JSONValue.compare(value, v) == 0`.
    private func equals(_ x: Operand, _ v: JSONValue, _ b: inout SQLBuilder) throws -> String {
        guard let family = ValueFamily(v), let side = x.families[family] else { return "false" }
        guard let arg = try argument(v, family, &b) else { return "false" }
        return when(side.test, "\(side.value) = \(arg)")
    }

    /// `JSONValue.compare(value, v) <op> 0`: lists and maps only compare equal or not at all.
    private func ordered(_ x: Operand, _ op: String, _ v: JSONValue, _ b: inout SQLBuilder) throws -> String {
        guard let family = ValueFamily(v), let side = x.families[family] else { return "false" }
        if family.isEqualityOnly { return op.hasSuffix("=") ? try equals(x, v, &b) : "false" }
        guard let arg = try argument(v, family, &b) else { return "false" }
        return when(side.test, "\(side.value) \(op) \(arg)")
    }

    private func between(_ x: Operand, _ lo: JSONValue, _ hi: JSONValue, _ b: inout SQLBuilder) throws -> String {
        guard let family = ValueFamily(lo), ValueFamily(hi) == family, let side = x.families[family] else { return "false" }
        if family.isEqualityOnly { return "(\(try equals(x, lo, &b)) AND \(try equals(x, hi, &b)))" }
        guard let low = try argument(lo, family, &b), let high = try argument(hi, family, &b) else { return "false" }
        return when(side.test, "(\(side.value) >= \(low) AND \(side.value) <= \(high))")
    }

    /// Substring of a string, or an element of a list equal to `v`.
    private func contains(_ x: Operand, _ v: JSONValue, _ b: inout SQLBuilder) throws -> String {
        var parts: [String] = []
        if let side = x.families[.string], let needle = v.stringValue {
            parts.append(needle.isEmpty ? side.test : when(side.test, "strpos(\(side.value), \(try text(needle, &b))) > 0"))
        }
        if let side = x.families[.list], let family = ValueFamily(v), let element = try jsonb(v, family, &b) {
            // jsonb equality of elements: false across types, numeric within numbers, byte-exact
            // for strings, structural for lists and maps (see `jsonb(_:_:_:)`).
            parts.append(when(side.test, "EXISTS (SELECT 1 FROM jsonb_array_elements(\(x.json)) AS deltasync_element(v) WHERE deltasync_element.v = \(element))"))
        }
        return parts.isEmpty ? "false" : "(" + parts.joined(separator: " OR ") + ")"
    }

    // MARK: - Arguments

    /// `v` bound as its family's value expression compares it.
    private func argument(_ v: JSONValue, _ family: ValueFamily, _ b: inout SQLBuilder) throws -> String? {
        switch v {
        case .string(let s): return try text(s, &b)
        case .int(let i): return "\(b.bind(String(i)))::numeric"
        case .double(let d): return d.isFinite ? "\(b.bind(String(d)))::numeric" : nil
        case .bool(let flag): return b.bind(flag)
        case .array, .object: return try jsonb(v, family, &b)
        case .null: return nil
        }
    }

    /// `v` as jsonb. A list or map equals a stored one by jsonb equality only when its JSON
    /// text reads back as the same value: stored values are read back from JSON (`3.0` becomes
    /// `3`), so no stored list equals `[3.0]`, while jsonb would say `[3] = [3.0]`.
    private func jsonb(_ v: JSONValue, _ family: ValueFamily, _ b: inout SQLBuilder) throws -> String? {
        guard v.hasOnlyFiniteNumbers else { return nil }
        let text = v.jsonText
        if family.isEqualityOnly, (try? JSONValue(parsing: text)) != v { return nil }
        if text.utf8.contains(0) || text.contains("\\u0000") { throw Uncompilable() }
        return "\(b.bind(text))::jsonb"
    }

    private func text(_ s: String, _ b: inout SQLBuilder) throws -> String {
        // PostgreSQL text cannot hold U+0000: such a filter is evaluated in memory.
        if s.utf8.contains(0) { throw Uncompilable() }
        return "(\(b.bind(s))::text COLLATE \"C\")"
    }
}

// MARK: - Operands

extension ValueFamily {
    /// `jsonb_typeof`'s name for the family.
    var jsonbType: String {
        switch self {
        case .string: return "string"
        case .number: return "number"
        case .bool: return "boolean"
        case .list: return "array"
        case .map: return "object"
        }
    }
}

/// What SQL can say about one value: whether it is missing, and for each family a test and the
/// value to compare (valid only where the test holds).
struct Operand {
    var isNull: String
    /// The jsonb value itself (for `jsonb_array_elements`).
    var json: String
    var families: [ValueFamily: (test: String, value: String)]
    var sizes: [ValueFamily: String]

    /// A field the model does not store.
    static let missing = Operand(isNull: "true", json: "NULL::jsonb", families: [:], sizes: [:])

    /// The never-null number `size()` yields.
    static func size(_ sql: String) -> Operand {
        Operand(isNull: "false", json: "to_jsonb(\(sql))", families: [.number: ("true", "(\(sql))::numeric")], sizes: [:])
    }

    /// A field of the item, by its jsonb type.
    static func field(_ name: String) -> Operand {
        let literal = PostgresSQL.literal(name)
        let x = "(item->\(literal))"
        let text = "((item->>\(literal)) COLLATE \"C\")"
        func type(_ family: ValueFamily) -> String { "COALESCE(jsonb_typeof(\(x)) = '\(family.jsonbType)', false)" }
        return Operand(
            isNull: "(\(x) IS NULL OR jsonb_typeof(\(x)) = 'null')",
            json: x,
            families: [
                .string: (type(.string), text),
                .number: (type(.number), "(\(x))::numeric"),
                .bool: (type(.bool), "(\(x))::boolean"),
                .list: (type(.list), x),
                .map: (type(.map), x),
            ],
            sizes: [
                .string: "octet_length(item->>\(literal))",
                .list: "jsonb_array_length(\(x))",
                .map: "(SELECT count(*) FROM jsonb_object_keys(\(x)))",
            ])
    }
}
