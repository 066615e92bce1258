import DeltaSyncCore
import Foundation

/// AppSync's date and time scalars, kept as the ISO 8601 text the server stores so no
/// precision or offset is lost, with conversions to `Date`.
///
/// ```swift
/// let published = Temporal.DateTime(Date())            // 2026-11-22T10:00:00.000Z
/// let day: Temporal.Date = "2026-11-22"
/// ```
public enum Temporal {
    /// `AWSDate`: `YYYY-MM-DD`, optionally with an offset.
    public struct Date: TemporalValue {
        /// The value as written, e.g. `2026-11-22`.
        public let iso8601: String
        /// The value of this text, unchecked: ``TemporalValue/init(json:)`` checks it.
        public init(iso8601: String) { self.iso8601 = iso8601 }
        /// What an `AWSDate` looks like.
        public static let pattern = #"^\d{4}-\d{2}-\d{2}(Z|[+-]\d{2}:\d{2}(:\d{2})?)?$"#
    }

    /// `AWSTime`: `hh:mm[:ss[.sss]]`, optionally with an offset.
    public struct Time: TemporalValue {
        /// The value as written, e.g. `10:00:00.000Z`.
        public let iso8601: String
        /// The value of this text, unchecked: ``TemporalValue/init(json:)`` checks it.
        public init(iso8601: String) { self.iso8601 = iso8601 }
        /// What an `AWSTime` looks like.
        public static let pattern = #"^\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}(:\d{2})?)?$"#
    }

    /// `AWSDateTime`: `YYYY-MM-DDThh:mm[:ss[.sss]]` with `Z` or an offset.
    public struct DateTime: TemporalValue {
        /// The value as written, e.g. `2026-11-22T10:00:00.000Z`.
        public let iso8601: String
        /// The value of this text, unchecked: ``TemporalValue/init(json:)`` checks it.
        public init(iso8601: String) { self.iso8601 = iso8601 }
        /// What an `AWSDateTime` looks like.
        public static let pattern = #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}(:\d{2})?)$"#

        /// The instant in UTC with milliseconds, as AppSync writes `createdAt`.
        public init(_ date: Foundation.Date) {
            iso8601 = AWSDateTimeFormat.string(fromMilliseconds: Int((date.timeIntervalSince1970 * 1000).rounded(.down)))
        }

        /// Now, in UTC with milliseconds.
        public static var now: DateTime { DateTime(Foundation.Date()) }

        /// The instant, or `nil` when the text has no parseable form.
        public var foundationDate: Foundation.Date? {
            let withFraction = Foundation.Date.ISO8601FormatStyle(includingFractionalSeconds: true)
            return (try? withFraction.parse(iso8601)) ?? (try? Foundation.Date.ISO8601FormatStyle().parse(iso8601))
        }
    }
}

/// What the three temporal types share: validated ISO text, ordered as text (which is time
/// order for values in the same offset, as AppSync compares them).
public protocol TemporalValue: ModelValue, Codable, Hashable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    var iso8601: String { get }
    init(iso8601: String)
    static var pattern: String { get }
}

extension TemporalValue {
    /// Validates `text` as this scalar.
    @inlinable public init(validating text: String) throws(DataStoreError) {
        guard text.range(of: Self.pattern, options: .regularExpression) != nil else {
            throw .decoding(model: "\(Self.self)", field: nil, reason: "'\(text)' is not a valid \(Self.self) (ISO 8601)")
        }
        self.init(iso8601: text)
    }

    /// The value of a literal such as `"2026-11-22"`.
    @inlinable public init(stringLiteral text: String) { self.init(iso8601: text) }
    /// Reads a JSON string that matches the type's pattern; anything else is a decoding error.
    @inlinable public init(json: JSONValue) throws(DataStoreError) {
        guard let text = json.stringValue else {
            throw .decoding(model: "\(Self.self)", field: nil, reason: "expected ISO 8601 text, got \(json.jsonText)")
        }
        try self.init(validating: text)
    }
    /// The text as a JSON string.
    @inlinable public var json: JSONValue { .string(iso8601) }
    /// The text as written.
    @inlinable public var description: String { iso8601 }
    /// Orders by text, which orders values written the same way (same precision and offset) in time.
    @inlinable public static func < (a: Self, b: Self) -> Bool { a.iso8601 < b.iso8601 }

    /// Decodes the text, checked as ``init(json:)`` checks it.
    @inlinable public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(validating: text)
    }
    /// Encodes the text.
    @inlinable public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }
}
