import DeltaSyncCore
import DeltaSyncSchema
import Foundation
import GraphQL

/// Input validation for AppSync's AWS scalars, with the formats of AppSync's documentation.
///
/// A schema built from SDL gets plain pass-through scalars; ``install(in:)`` replaces their
/// parsing so a malformed `AWSEmail` or `AWSDateTime` is refused before any resolver runs,
/// as AppSync refuses it.
package enum AWSScalars {
    static func install(in schema: GraphQLSchema) {
        for scalar in ScalarType.allCases where scalar.isAWSScalar {
            guard let type = schema.getType(name: scalar.rawValue) as? GraphQLScalarType else { continue }
            GraphQLLibraryHooks.replaceScalar(
                type,
                parseValue: { value in try parse(value, as: scalar) },
                parseLiteral: { ast in
                    switch ast {
                    case let s as StringValue: return try parse(.string(s.value), as: scalar)
                    case let i as IntValue:
                        guard let int = Int(i.value) else { throw invalid(i.value, scalar) }
                        return try parse(.int(int), as: scalar)
                    default: throw invalid(GraphQL.print(ast: ast), scalar)
                    }
                },
                serialize: { value in try serialize(value, as: scalar) })
        }
    }

    /// Checks one input value; returns it unchanged (AWSJSON objects become JSON text).
    static func parse(_ value: Map, as scalar: ScalarType) throws -> Map {
        if scalar == .awsTimestamp {
            // Epoch milliseconds (`_lastChangedAt`, `lastSync`) pass 2^53: read exactly, never
            // through a double.
            if case .number(let n) = value, let integer = BuiltInScalars.exactInteger(n) { return .int(integer) }
            throw invalid("\(value)", scalar)
        }
        if scalar == .awsJSON {
            switch value {
            case .string(let text):
                guard (try? JSONValue(parsing: text)) != nil else {
                    throw GraphQLError(message: "Variable has an invalid value: '\(text)' is not valid JSON for AWSJSON.")
                }
                return value
            case .dictionary, .array, .number, .bool:
                return .string(JSONValue(value).jsonText)
            default:
                throw invalid("\(value)", scalar)
            }
        }
        guard case .string(let text) = value else { throw invalid("\(value)", scalar) }
        guard isValid(text, as: scalar) else { throw invalid(text, scalar) }
        return value
    }

    static func serialize(_ value: Any, as scalar: ScalarType) throws -> Map {
        switch value {
        case let s as String: return .string(s)
        case let i as Int: return .int(i)
        case let d as Double:
            guard scalar == .awsTimestamp else { return .double(d) }
            guard let integer = Int(exactly: d) else { throw invalid("\(d)", scalar) }
            return .int(integer)
        case let m as Map: return m
        default: return try map(from: value)
        }
    }

    private static func invalid(_ text: String, _ scalar: ScalarType) -> GraphQLError {
        GraphQLError(message: "Invalid value '\(text)' for \(scalar.rawValue): expected \(expectation(scalar)).")
    }

    private static func expectation(_ scalar: ScalarType) -> String {
        switch scalar {
        case .awsDate: return "an extended ISO 8601 date, YYYY-MM-DD"
        case .awsTime: return "an extended ISO 8601 time, hh:mm:ss.sss with an optional offset"
        case .awsDateTime: return "an extended ISO 8601 date and time with an offset, YYYY-MM-DDThh:mm:ss.sssZ"
        case .awsTimestamp: return "an integer number of seconds since the epoch"
        case .awsEmail:
            return "an email address such as name@example.com, at most 254 bytes, its local part at most 64"
        case .awsJSON: return "a JSON string"
        case .awsPhone: return "a phone number such as +1 206 555 0100"
        case .awsURL: return "a URL with a scheme and a valid host, such as https://example.com/path, without // in its path"
        case .awsIPAddress: return "an IPv4 or IPv6 address, optionally with a /prefix"
        default: return scalar.rawValue
        }
    }

    // MARK: - Formats

    package static func isValid(_ text: String, as scalar: ScalarType) -> Bool {
        switch scalar {
        case .awsDate: return matchesDate(Substring(text), requireOffset: false)
        case .awsTime: return matchesTime(Substring(text), requireOffset: false)
        case .awsDateTime:
            let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
            return parts.count == 2 && matchesDate(parts[0], requireOffset: false, allowOffset: false)
                && matchesTime(parts[1], requireOffset: true)
        case .awsEmail: return EmailAddressSyntax.isValid(text)
        case .awsPhone: return isPhone(text)
        case .awsURL: return URLSyntax.isValid(text)
        case .awsIPAddress: return isIPAddress(text)
        default: return true
        }
    }

    private static func digits(_ s: Substring, _ count: Int) -> Int? {
        guard s.count == count, s.allSatisfy(\.isASCIIDigitChar) else { return nil }
        return Int(s)
    }

    /// Splits a trailing `Z` or `±hh:mm[:ss]` offset off `s`; `nil` when the offset is malformed.
    private static func splitOffset(_ s: Substring) -> (body: Substring, hasOffset: Bool)? {
        if s.hasSuffix("Z") { return (s.dropLast(), true) }
        guard let sign = s.lastIndex(where: { $0 == "+" || $0 == "-" }) else { return (s, false) }
        let offset = s[s.index(after: sign)...].split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(offset.count), let h = digits(offset[0], 2), let m = digits(offset[1], 2),
            h <= 23, m <= 59, offset.count == 2 || digits(offset[2], 2).map({ $0 <= 59 }) == true
        else { return nil }
        return (s[..<sign], true)
    }

    private static func matchesDate(_ s: Substring, requireOffset: Bool, allowOffset: Bool = true) -> Bool {
        var body = s
        if allowOffset, s.count > 10 {
            guard let split = splitOffset(s.dropFirst(10)), split.body.isEmpty else { return false }
            body = s.prefix(10)
        } else if requireOffset {
            return false
        }
        let parts = body.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, let y = digits(parts[0], 4), let m = digits(parts[1], 2), let d = digits(parts[2], 2),
            (1...12).contains(m), d >= 1
        else { return false }
        let days = [31, (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return d <= days[m - 1]
    }

    private static func matchesTime(_ s: Substring, requireOffset: Bool) -> Bool {
        guard let (body, hasOffset) = splitOffset(s), hasOffset || !requireOffset else { return false }
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), let h = digits(parts[0], 2), let m = digits(parts[1], 2),
            h <= 23, m <= 59
        else { return false }
        if parts.count == 3 {
            let secParts = parts[2].split(separator: ".", omittingEmptySubsequences: false)
            guard (1...2).contains(secParts.count), let sec = digits(secParts[0], 2), sec <= 59 else { return false }
            if secParts.count == 2 {
                guard !secParts[1].isEmpty, secParts[1].count <= 9, secParts[1].allSatisfy(\.isASCIIDigitChar) else {
                    return false
                }
            }
        }
        return true
    }

    private static func isPhone(_ s: String) -> Bool {
        let allowed = Set("0123456789 -().+")
        let digitCount = s.filter(\.isASCIIDigitChar).count
        return !s.isEmpty && s.allSatisfy(allowed.contains) && (7...15).contains(digitCount)
            && !s.dropFirst().contains("+")
    }

    private static func isIPAddress(_ s: String) -> Bool {
        let parts = s.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return false }
        let address = parts[0]
        let isV6 = address.contains(":")
        if parts.count == 2 {
            guard let prefix = Int(parts[1]), prefix >= 0, prefix <= (isV6 ? 128 : 32) else { return false }
        }
        return isV6 ? isIPv6(address) : isIPv4(address)
    }

    private static func isIPv4(_ s: Substring) -> Bool {
        let octets = s.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.allSatisfy { o in
            !o.isEmpty && o.count <= 3 && o.allSatisfy(\.isASCIIDigitChar) && Int(o)! <= 255
        }
    }

    /// An IPv6 address without prefix or zone; also the bracketed host of an `AWSURL`.
    static func isIPv6(_ s: Substring) -> Bool {
        let halves = s.components(separatedBy: "::")
        guard halves.count <= 2 else { return false }
        func groups(_ part: String) -> [Substring]? {
            part.isEmpty ? [] : part.split(separator: ":", omittingEmptySubsequences: false)
        }
        guard let head = groups(halves[0]), let tail = halves.count == 2 ? groups(halves[1]) : [] else { return false }
        var all = head + tail
        var count = all.count
        if let last = all.last, last.contains(".") {
            guard isIPv4(last) else { return false }
            all.removeLast()
            count += 1
        }
        let hexOK = all.allSatisfy { g in (1...4).contains(g.count) && g.allSatisfy(\.isHexDigit) }
        return hexOK && (halves.count == 2 ? count < 8 : count == 8)
    }
}

extension Character {
    fileprivate var isASCIIDigitChar: Bool { isASCII && isNumber }
}
