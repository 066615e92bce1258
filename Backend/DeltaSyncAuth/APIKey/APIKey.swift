import Foundation

/// An API key clients send as `x-api-key`, valid until `expires` (AppSync keys live 1 to 365
/// days; an expired key is refused with a 401).
///
/// ```swift
/// let key = try APIKey(argument: "da2-local:2026-12-31T00:00:00Z")
/// let forAWeek = try APIKey(argument: "da2-ci:7d")
/// ```
public struct APIKey: Sendable, Equatable {
    public var value: String
    /// `nil`: never expires.
    public var expires: Date?

    public init(_ value: String, expires: Date? = nil) {
        self.value = value
        self.expires = expires
    }

    /// A `KEY` or `KEY:EXPIRES` command-line value, where `EXPIRES` is an ISO 8601 time, epoch
    /// seconds, or a duration from `now` (`90s`, `30m`, `12h`, `7d`).
    public init(argument: String, now: Date = Date()) throws(APIKeyArgumentError) {
        guard let colon = argument.firstIndex(of: ":") else {
            guard !argument.isEmpty else { throw APIKeyArgumentError("an API key must not be empty") }
            self.init(argument)
            return
        }
        let value = String(argument[..<colon])
        let expiry = String(argument[argument.index(after: colon)...])
        guard !value.isEmpty else { throw APIKeyArgumentError("an API key must not be empty: '\(argument)'") }
        guard let expires = Self.date(expiry, now: now) else {
            throw APIKeyArgumentError(
                "'\(expiry)' is not an expiry: give an ISO 8601 time (2026-12-31T00:00:00Z), epoch seconds, or a duration (7d, 12h)"
            )
        }
        self.init(value, expires: expires)
    }

    private static func date(_ text: String, now: Date) -> Date? {
        if let seconds = Int(text) { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
        if let date = ISO8601DateFormatter().date(from: text) { return date }
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        guard let unit = text.last.flatMap({ units[$0] }), let amount = Double(text.dropLast()), amount > 0, amount < 1e9 else {
            return nil
        }
        return now.addingTimeInterval(amount * unit)
    }
}

/// A `--api-key` value that cannot be read.
public struct APIKeyArgumentError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
