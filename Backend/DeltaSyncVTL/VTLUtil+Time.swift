import DeltaSyncCore
import Foundation

/// `$util.time`: the current instant from ``VTLRuntime/clock``, epoch conversions, and
/// formatting and parsing with Java `DateTimeFormatter` patterns (``VTLDateTimePattern``) in
/// UTC or a zone (`+08:00`, `Australia/Perth`).
extension VTLUtil {
    /// The value of `$util.time.<name>(arguments)`; `nil` for a name outside `time`.
    static func time(_ name: String, _ arguments: [VTLValue], in evaluation: VTLEvaluation, at position: VTLPosition) throws -> VTLValue? {
        guard name.hasPrefix("time.") else { return nil }
        func fail(_ message: String) -> VTLError { evaluation.failure("$util.\(name): \(message)", at: position) }
        func expect(_ counts: ClosedRange<Int>) throws {
            guard counts.contains(arguments.count) else { throw fail("takes \(counts.lowerBound)\(counts.count > 1 ? " or \(counts.upperBound)" : "") argument(s), got \(arguments.count)") }
        }
        func text(_ offset: Int) throws -> String {
            guard case .string(let text) = arguments[offset] else { throw fail("argument \(offset + 1) must be a string") }
            return text
        }
        func milliseconds(_ offset: Int) throws -> Int {
            switch arguments[offset] {
            case .int(let value): return value
            case .double(let value) where value.isFinite && abs(value) < 9e15: return Int(value)
            default: throw fail("argument \(offset + 1) must be milliseconds since the epoch")
            }
        }
        func pattern(_ offset: Int) throws -> VTLDateTimePattern {
            do {
                return try VTLDateTimePattern(try text(offset))
            } catch let failure as VTLDateTimePattern.Failure {
                throw fail(failure.message)
            }
        }
        func zone(_ offset: Int) throws -> VTLTimeZone? {
            guard arguments.count > offset else { return nil }
            let id = try text(offset)
            guard let zone = VTLTimeZone.named(id) else { throw fail("'\(id)' is no zone: give an offset (+08:00) or a region (America/New_York)") }
            return zone
        }
        let now = Int((evaluation.runtime.clock().timeIntervalSince1970 * 1000).rounded(.down))
        switch String(name.dropFirst(5)) {
        case "nowISO8601":
            try expect(0...0)
            return .string(AWSDateTimeFormat.string(fromMilliseconds: now))
        case "nowEpochSeconds":
            try expect(0...0)
            return .int(CivilDate.floorDivide(now, 1000).0)
        case "nowEpochMilliSeconds":
            try expect(0...0)
            return .int(now)
        case "nowFormatted":
            try expect(1...2)
            return .string(try pattern(0).format(milliseconds: now, in: try zone(1) ?? .utc))
        case "epochMilliSecondsToFormatted":
            try expect(2...3)
            return .string(try pattern(1).format(milliseconds: try milliseconds(0), in: try zone(2) ?? .utc))
        case "parseFormattedToEpochMilliSeconds":
            try expect(2...3)
            do {
                return .int(try pattern(1).parse(try text(0), zone: try zone(2)))
            } catch let failure as VTLDateTimePattern.Failure {
                throw fail(failure.message)
            }
        case "parseISO8601ToEpochMilliSeconds":
            try expect(1...1)
            guard let date = parseISO8601(try text(0)) else { throw fail("'\(try text(0))' is not an ISO 8601 date-time") }
            return .int(Int((date.timeIntervalSince1970 * 1000).rounded()))
        case "epochMilliSecondsToSeconds":
            try expect(1...1)
            return .int(CivilDate.floorDivide(try milliseconds(0), 1000).0)
        case "epochMilliSecondsToISO8601":
            try expect(1...1)
            return .string(AWSDateTimeFormat.string(fromMilliseconds: try milliseconds(0)))
        default:
            return nil
        }
    }

    private static func parseISO8601(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
