import Foundation
import GRDB

/// A piece of SQL with its `?` arguments, in order. Values only ever travel as arguments;
/// the SQL text holds quoted identifiers and fixed keywords.
package struct SQLFragment {
    package var sql: String
    package var arguments: [DatabaseValue]

    package init(_ sql: String, _ arguments: [DatabaseValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    package static let `true` = SQLFragment("1")
    package static let `false` = SQLFragment("0")

    /// `(a AND b AND ...)`; `empty` when there are no parts.
    package static func joined(_ parts: [SQLFragment], by keyword: String, empty: SQLFragment) -> SQLFragment {
        switch parts.count {
        case 0: return empty
        case 1: return parts[0]
        default:
            return SQLFragment(
                "(" + parts.map(\.sql).joined(separator: " \(keyword) ") + ")",
                parts.flatMap(\.arguments)
            )
        }
    }

    package static func and(_ parts: [SQLFragment]) -> SQLFragment { joined(parts, by: "AND", empty: .true) }

    package static func or(_ parts: [SQLFragment]) -> SQLFragment { joined(parts, by: "OR", empty: .false) }

    package static func not(_ part: SQLFragment) -> SQLFragment { SQLFragment("(NOT \(part.sql))", part.arguments) }

    /// `part` where `test` holds, else 0; `part` is not evaluated where `test` fails.
    package static func when(_ test: String, _ part: SQLFragment) -> SQLFragment {
        SQLFragment("(CASE WHEN \(test) THEN \(part.sql) ELSE 0 END)", part.arguments)
    }

    /// Text `expression` starting with `prefix`, byte for byte, as a range an index can seek:
    /// under SQLite's byte-wise (BINARY) collation these are exactly the texts from `prefix` up
    /// to, excluding, `prefix` with its last byte incremented. UTF-8 never holds the byte 0xFF,
    /// so the increment cannot carry; the bound is not valid UTF-8, so it is bound as a blob
    /// and read as text. (`LIKE` would ignore case and treat `%` and `_` as wildcards.)
    package static func startsWith(_ expression: String, _ prefix: String) -> SQLFragment {
        var upper = Array(prefix.utf8)
        guard let last = upper.popLast() else { return SQLFragment("typeof(\(expression)) = 'text'") }
        upper.append(last + 1)
        let lower = text(prefix)
        return SQLFragment(
            "(\(expression) >= \(lower.placeholder) AND \(expression) < CAST(? AS TEXT))",
            [lower.argument, Data(upper).databaseValue]
        )
    }

    /// A text argument and the placeholder that reads it. GRDB binds text as a C string, which
    /// ends at the first NUL, so `"a\u{0}b"` would compare as `"a"`: text holding a NUL is
    /// bound as a blob and read back as text, byte for byte.
    package static func text(_ value: String) -> (placeholder: String, argument: DatabaseValue) {
        value.utf8.contains(0) ? ("CAST(? AS TEXT)", Data(value.utf8).databaseValue) : ("?", value.databaseValue)
    }
}
