import DeltaSyncCore
import Foundation

/// A Swift value a model field holds, with its JSON form in AppSync's wire shape.
public protocol ModelValue: Sendable {
    /// Reads the value from its AppSync JSON form.
    init(json: JSONValue) throws(DataStoreError)
    /// The value in its AppSync JSON form.
    var json: JSONValue { get }
}

@usableFromInline
func mismatch(_ type: String, _ json: JSONValue) -> DataStoreError {
    .decoding(model: type, field: nil, reason: "expected \(type), got \(json.jsonText)")
}

extension String: ModelValue {
    /// Reads a JSON string.
    @inlinable public init(json: JSONValue) throws(DataStoreError) {
        guard let value = json.stringValue else { throw mismatch("String", json) }
        self = value
    }
    /// The string as a JSON string.
    @inlinable public var json: JSONValue { .string(self) }
}

extension Int: ModelValue {
    /// Reads a JSON number without a fraction.
    @inlinable public init(json: JSONValue) throws(DataStoreError) {
        guard let value = json.intValue else { throw mismatch("Int", json) }
        self = value
    }
    /// The integer as a JSON number.
    @inlinable public var json: JSONValue { .int(self) }
}

extension Double: ModelValue {
    /// Reads a JSON number; an integer is widened.
    @inlinable public init(json: JSONValue) throws(DataStoreError) {
        guard let value = json.doubleValue else { throw mismatch("Double", json) }
        self = value
    }
    /// The number as a JSON number.
    @inlinable public var json: JSONValue { .double(self) }
}

extension Bool: ModelValue {
    /// Reads a JSON boolean.
    @inlinable public init(json: JSONValue) throws(DataStoreError) {
        guard let value = json.boolValue else { throw mismatch("Bool", json) }
        self = value
    }
    /// The boolean as a JSON boolean.
    @inlinable public var json: JSONValue { .bool(self) }
}

/// `AWSJSON`: any JSON value. On the wire it travels as JSON text, which is decoded here.
extension JSONValue: ModelValue {
    /// Reads the value; a string holding JSON text (how AppSync sends `AWSJSON`) is parsed.
    public init(json: JSONValue) throws(DataStoreError) {
        if case .string(let text) = json, let parsed = try? JSONValue(parsing: text) {
            self = parsed
        } else {
            self = json
        }
    }
    /// The value as JSON text, how AppSync takes `AWSJSON`.
    public var json: JSONValue { .string(jsonText) }
}

/// `AWSTimestamp`: seconds since 1970.
extension Date: ModelValue {
    /// Reads whole seconds since 1970.
    public init(json: JSONValue) throws(DataStoreError) {
        guard let seconds = json.intValue else { throw mismatch("AWSTimestamp", json) }
        self.init(timeIntervalSince1970: TimeInterval(seconds))
    }
    /// The instant as whole seconds since 1970, rounded down.
    public var json: JSONValue { .int(Int(timeIntervalSince1970.rounded(.down))) }
}

extension Optional: ModelValue where Wrapped: ModelValue {
    /// `null` is `nil`; anything else is read as `Wrapped`.
    @inlinable public init(json: JSONValue) throws(DataStoreError) {
        self = json.isNull ? nil : try Wrapped(json: json)
    }
    /// `nil` as `null`.
    @inlinable public var json: JSONValue { self?.json ?? .null }
}

extension Array: ModelValue where Element: ModelValue {
    /// Reads a JSON array, element by element.
    @inlinable public init(json: JSONValue) throws(DataStoreError) {
        guard case .array(let elements) = json else { throw mismatch("a list", json) }
        var values: [Element] = []
        values.reserveCapacity(elements.count)
        for element in elements { values.append(try Element(json: element)) }
        self = values
    }
    /// The elements as a JSON array.
    @inlinable public var json: JSONValue { .array(map(\.json)) }
}

extension Item {
    /// A field's value for generated `init(item:)`: a missing field reads as `null`, which only
    /// an optional accepts.
    @inlinable public func field<FieldValue: ModelValue>(_ name: String, of model: String) throws(DataStoreError) -> FieldValue {
        try decodeField(self[name] ?? .null, name, of: model)
    }
}

/// `value` as a field's Swift type; a failure names the model and field.
@inlinable func decodeField<FieldValue: ModelValue>(_ value: JSONValue, _ name: String, of model: String) throws(DataStoreError) -> FieldValue {
    do {
        return try FieldValue(json: value)
    } catch {
        if value.isNull { throw .decoding(model: model, field: name, reason: "the field is required but has no value") }
        guard case .decoding(_, _, let reason) = error else { throw error }
        throw .decoding(model: model, field: name, reason: reason)
    }
}
