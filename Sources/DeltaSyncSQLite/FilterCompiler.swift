import DeltaSyncCore
import Foundation
import GRDB

/// Compiles a ``QueryPredicate`` to a SQL expression over one model table that is 1 exactly for the
/// rows whose item (as ``ModelTable/item(from:)`` reads it) satisfies ``QueryPredicate/matches(_:)``.
///
/// Every expression it builds is 0 or 1, never NULL, so `NOT` and `OR` compose like Swift's
/// Booleans and a missing attribute behaves as in DynamoDB. SQLite compares values of different
/// storage classes (and its affinity converts bound strings to numbers); DynamoDB never
/// compares a number with a string. So each comparison first tests the stored value's kind
/// with `typeof()`, or `json_type()` in JSON columns, mirroring how ``ColumnKind/decode(_:)``
/// reads it.
///
/// Strings compare by UTF-8 bytes, as DynamoDB does. Swift differs in two places the filter
/// inputs rarely reach: `==` treats canonically equivalent strings (`"é"` and `"e\u{301}"`) as
/// equal, and `contains` matches whole characters, so `"e\u{301}"` does not contain `"e"` in
/// Swift but does here.
package struct FilterCompiler {
    package let table: ModelTable

    package init(table: ModelTable) {
        self.table = table
    }

    package func compile(_ predicate: QueryPredicate) -> SQLFragment {
        switch predicate {
        case .all: return .true
        case .and(let parts): return .and(parts.map(compile))
        case .or(let parts): return .or(parts.map(compile))
        case .not(let inner): return .not(compile(inner))
        case .field(let name, let op):
            // An unknown field can only come from an internal caller (generated filter inputs
            // list known fields): it reads as a missing attribute, as in DynamoDB.
            let operand = table.column(named: name).map { Operand(table.columns[$0]) } ?? .missing
            return compile(op, on: operand)
        }
    }

    // MARK: - Operators

    private func compile(_ op: FieldOperator, on x: Operand) -> SQLFragment {
        switch op {
        case .eq(let v): return v.isNull ? SQLFragment(x.isNull) : equals(x, v)
        case .ne(let v): return .not(v.isNull ? SQLFragment(x.isNull) : equals(x, v))
        case .lt(let v): return ordered(x, "<", v)
        case .le(let v): return ordered(x, "<=", v)
        case .gt(let v): return ordered(x, ">", v)
        case .ge(let v): return ordered(x, ">=", v)
        case .between(let lo, let hi): return between(x, lo, hi)
        case .contains(let v): return contains(x, v)
        case .notContains(let v): return .not(contains(x, v))
        case .beginsWith(let prefix):
            guard let side = x.families[.string] else { return .false }
            return .when(side.test, .startsWith(side.value, prefix))
        case .attributeExists(let exists):
            return exists ? .not(SQLFragment(x.isNull)) : SQLFragment(x.isNull)
        case .attributeType(let name):
            if name == "_null" { return SQLFragment(x.isNull) }
            guard let family = ValueFamily(typeName: name), let side = x.families[family] else { return .false }
            return SQLFragment(side.test)
        case .size(let inner):
            return .or(x.sizes.keys.sorted().compactMap { family in
                guard let side = x.families[family], let size = x.sizes[family] else { return nil }
                return .when(side.test, compile(inner, on: .size(size)))
            })
        case .in(let list):
            return .or(list.filter { !$0.isNull }.map { equals(x, $0) })
        case .notIn(let list):
            return .not(.or(list.filter { !$0.isNull }.map { equals(x, $0) }))
        }
    }

    /// `JSONValue.compare(value, v) == 0`.
    private func equals(_ x: Operand, _ v: JSONValue) -> SQLFragment {
        guard let family = ValueFamily(v), let side = x.families[family], let arg = Self.argument(v) else {
            return .false
        }
        return .when(side.test, SQLFragment("\(side.value) = \(arg.placeholder)", [arg.argument]))
    }

    /// `JSONValue.compare(value, v) <op> 0`: lists and maps only compare equal or not at all.
    private func ordered(_ x: Operand, _ op: String, _ v: JSONValue) -> SQLFragment {
        guard let family = ValueFamily(v), let side = x.families[family] else { return .false }
        if family.isEqualityOnly { return op.hasSuffix("=") ? equals(x, v) : .false }
        let arg = Self.argument(v)!
        return .when(side.test, SQLFragment("\(side.value) \(op) \(arg.placeholder)", [arg.argument]))
    }

    private func between(_ x: Operand, _ lo: JSONValue, _ hi: JSONValue) -> SQLFragment {
        guard let family = ValueFamily(lo), ValueFamily(hi) == family, let side = x.families[family] else {
            return .false
        }
        if family.isEqualityOnly { return .and([equals(x, lo), equals(x, hi)]) }
        let low = Self.argument(lo)!, high = Self.argument(hi)!
        return .when(side.test, SQLFragment(
            "\(side.value) BETWEEN \(low.placeholder) AND \(high.placeholder)", [low.argument, high.argument]))
    }

    /// Substring of a string, or an element of a list equal to `v`.
    private func contains(_ x: Operand, _ v: JSONValue) -> SQLFragment {
        var parts: [SQLFragment] = []
        if let side = x.families[.string], let needle = v.stringValue {
            parts.append(
                needle.isEmpty
                    ? SQLFragment(side.test)
                    : .when(side.test, SQLFragment("instr(CAST(\(side.value) AS BLOB), ?) > 0", [Data(needle.utf8).databaseValue]))
            )
        }
        if let side = x.families[.list], let element = elementMatch(v) {
            parts.append(.when(side.test, SQLFragment(
                "EXISTS (SELECT 1 FROM json_each(\(side.value)) AS deltasync_element WHERE \(element.sql))",
                element.arguments
            )))
        }
        return .or(parts)
    }

    /// A `json_each` row whose element compares equal to `v`.
    private func elementMatch(_ v: JSONValue) -> SQLFragment? {
        let type = "deltasync_element.type", value = "deltasync_element.value"
        guard let family = ValueFamily(v), let arg = Self.argument(v) else { return nil }
        let match = "\(value) = \(arg.placeholder)"
        switch family {
        case .string: return SQLFragment("\(type) = 'text' AND \(match)", [arg.argument])
        case .number: return SQLFragment("\(type) IN ('integer', 'real') AND \(match)", [arg.argument])
        case .bool: return SQLFragment("\(type) = ?", [(v.boolValue! ? "true" : "false").databaseValue])
        case .list: return SQLFragment("\(type) = 'array' AND \(match)", [arg.argument])
        case .map: return SQLFragment("\(type) = 'object' AND \(match)", [arg.argument])
        }
    }

    /// `v` as SQL compares it with the value expressions of ``Operand``, with the placeholder
    /// that reads it; `nil` for a list or map that no stored value can equal (see
    /// ``JSONText/roundTripping(_:)``).
    private static func argument(_ v: JSONValue) -> (placeholder: String, argument: DatabaseValue)? {
        switch v {
        case .null: return nil
        case .bool(let b): return ("?", Int64(b ? 1 : 0).databaseValue)
        case .int(let i): return ("?", Int64(i).databaseValue)
        case .double(let d): return ("?", d.databaseValue)
        case .string(let s): return SQLFragment.text(s)
        case .array, .object: return JSONText.roundTripping(v).map(SQLFragment.text)
        }
    }
}

// MARK: - Operands


/// What SQL can say about one value of a row, all as argument-free SQL.
///
/// A value expression is only valid where its family's test holds (`json_each` fails on text
/// that is not JSON), so the compiler evaluates it inside `CASE WHEN test THEN ... END`: unlike
/// `AND`, `CASE` is guaranteed to skip the branch it does not take.
struct Operand {
    /// True when the value is missing.
    var isNull: String
    /// For each family the value may have: a test that it has it, and the value to compare.
    var families: [ValueFamily: (test: String, value: String)]
    /// `size()` for the families that have one, valid where the family's test holds.
    var sizes: [ValueFamily: String]

    /// A field the model does not store.
    static let missing = Operand(isNull: "1", families: [:], sizes: [:])

    /// The never-null number `size()` yields.
    static func size(_ sql: String) -> Operand {
        Operand(isNull: "0", families: [.number: ("1", sql)], sizes: [:])
    }

    init(isNull: String, families: [ValueFamily: (test: String, value: String)], sizes: [ValueFamily: String]) {
        self.isNull = isNull
        self.families = families
        self.sizes = sizes
    }

    /// A column, read as ``ColumnKind/decode(_:)`` reads it.
    init(_ column: ModelTable.Column) {
        let c = column.quoted
        // `+column` has no affinity: compared with it, a bound "12" stays a string where the
        // bare column would turn it into the number 12 (an Int column keeps text it could not
        // convert when a field changed type).
        let v = "+\(c)"
        isNull = "\(c) IS NULL"
        families = [:]
        sizes = [.string: "length(CAST(\(c) AS BLOB))"]
        switch column.kind {
        case .boolean:
            families[.bool] = ("typeof(\(c)) = 'integer'", "(\(c) <> 0)")
            families[.number] = ("typeof(\(c)) = 'real'", v)
            families[.string] = ("typeof(\(c)) = 'text'", v)
        case .list, .object:
            let isList = column.kind == .list
            let shape = "COALESCE(CASE WHEN json_valid(\(c)) THEN json_type(\(c)) END = '\(isList ? "array" : "object")', 0)"
            families[isList ? .list : .map] = (shape, v)
            sizes[isList ? .list : .map] = isList ? "json_array_length(\(c))" : "(SELECT count(*) FROM json_each(\(c)))"
            families[.number] = ("typeof(\(c)) IN ('integer', 'real')", v)
            families[.string] = ("(typeof(\(c)) = 'text' AND NOT \(shape))", v)
        case .integer, .real, .text, .jsonString:
            families[.number] = ("typeof(\(c)) IN ('integer', 'real')", v)
            families[.string] = ("typeof(\(c)) = 'text'", v)
        }
    }
}
