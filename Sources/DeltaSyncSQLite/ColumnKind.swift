import DeltaSyncCore
import DeltaSyncModelSchema
import Foundation
import GRDB

/// How one field's values are stored in its column and read back.
///
/// Writes are strict (a value must fit the field's type) because column affinity would otherwise
/// change a value's kind: SQLite turns the string `"123"` into the integer `123` in an INTEGER
/// column. Reads are lenient and go by the stored value's class, so values written under an older
/// schema (before a field changed type) come back as they were stored, and ``FilterCompiler``
/// applies the same rule in SQL.
package typealias ColumnKind = FieldKind

extension FieldKind {
    /// The declared column type, which sets the column's affinity.
    package var sqlType: String {
        switch self {
        case .integer, .boolean: return "INTEGER"
        case .real: return "REAL"
        case .text, .jsonString, .list, .object: return "TEXT"
        }
    }

    // MARK: - Writing

    /// The value to store, or `nil` when `value` does not fit this kind.
    package func encode(_ value: JSONValue) -> DatabaseValue? {
        if value.isNull { return .null }
        switch self {
        case .integer:
            return value.intValue.map { Int64($0).databaseValue }
        case .real:
            guard let d = value.doubleValue, d.isFinite else { return nil }
            return d.databaseValue
        case .boolean:
            return value.boolValue.map { Int64($0 ? 1 : 0).databaseValue }
        case .text:
            return value.stringValue?.databaseValue
        case .jsonString:
            if let s = value.stringValue { return s.databaseValue }
            return JSONText.canonical(value)?.databaseValue
        case .list:
            guard case .array = value else { return nil }
            return JSONText.canonical(value)?.databaseValue
        case .object:
            guard case .object = value else { return nil }
            return JSONText.canonical(value)?.databaseValue
        }
    }

    // MARK: - Reading

    /// The JSON value of a stored value, by its storage class (see the type's comment).
    package func decode(_ dbValue: DatabaseValue) -> JSONValue {
        switch dbValue.storage {
        case .null, .blob:
            // Nothing in this store writes blobs.
            return .null
        case .int64(let i):
            return self == .boolean ? .bool(i != 0) : .int(Int(i))
        case .double(let d):
            return .double(d)
        case .string(let s):
            return decode(text: s)
        }
    }

    /// The JSON value of stored text: lists and objects are JSON text, anything else a string.
    package func decode(text: String) -> JSONValue {
        parsed { try JSONValue(parsing: text) } ?? .string(text)
    }

    /// ``decode(text:)`` for text as SQLite returns it: a list field is parsed without making a
    /// `String` of it first.
    package func decode(utf8 bytes: UnsafeBufferPointer<UInt8>) -> JSONValue {
        parsed { try JSONValue(parsingUTF8: bytes) } ?? .string(String(decoding: bytes, as: UTF8.self))
    }

    /// What `parse` gives, when this kind stores JSON text and the text is of its shape.
    private func parsed(_ parse: () throws -> JSONValue) -> JSONValue? {
        switch self {
        case .list:
            if let value = try? parse(), case .array = value { return value }
        case .object:
            if let value = try? parse(), case .object = value { return value }
        default:
            break
        }
        return nil
    }
}

/// JSON text as this store writes it.
enum JSONText {
    /// ``JSONValue/jsonText`` (sorted keys, compact), or `nil` when the value cannot be written
    /// as JSON (a non-finite number).
    static func canonical(_ value: JSONValue) -> String? {
        guard value.hasOnlyFiniteNumbers else { return nil }
        return value.jsonText
    }

    /// The text equal values are stored as, when reading it back gives `value` again.
    ///
    /// Text equality in SQL stands for value equality only for such values: `3.0` is written as
    /// `3` and read back as the integer `3`, so no stored list can equal `[3.0]`.
    static func roundTripping(_ value: JSONValue) -> String? {
        guard let text = canonical(value), (try? JSONValue(parsing: text)) == value else { return nil }
        return text
    }
}
