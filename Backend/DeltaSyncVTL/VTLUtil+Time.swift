import DeltaSyncCore
import Foundation

/// `$util.time`: the current instant from ``VTLRuntime/clock``, epoch conversions, and
/// formatting and parsing with Java `DateTimeFormatter` patterns (``VTLDateTimePattern``) in
/// UTC or a zone (`+08:00`, `Australia/Perth`).
extension VTLUtil {
    static let timeFunctions: [String: VTLUtilFunction] = [
        "time.nowISO8601": { e, call in
            try expect(0...0, call)
            return .string(AWSDateTimeFormat.string(fromMilliseconds: now(e)))
        },
        "time.nowEpochSeconds": { e, call in
            try expect(0...0, call)
            return .int(CivilDate.floorDivide(now(e), 1000).0)
        },
        "time.nowEpochMilliSeconds": { e, call in
            try expect(0...0, call)
            return .int(now(e))
        },
        "time.nowFormatted": { e, call in
            try expect(1...2, call)
            return .string(try pattern(call, 0).format(milliseconds: now(e), in: try zone(call, 1) ?? .utc))
        },
        "time.epochMilliSecondsToFormatted": { _, call in
            try expect(2...3, call)
            return .string(try pattern(call, 1).format(milliseconds: try milliseconds(call, 0), in: try zone(call, 2) ?? .utc))
        },
        "time.parseFormattedToEpochMilliSeconds": { _, call in
            try expect(2...3, call)
            do {
                return .int(try pattern(call, 1).parse(try text(call, 0), zone: try zone(call, 2)))
            } catch let failure as VTLDateTimePattern.Failure {
                throw call.failure(failure.message)
            }
        },
        "time.parseISO8601ToEpochMilliSeconds": { _, call in
            try expect(1...1, call)
            guard let date = parseISO8601(try text(call, 0)) else { throw call.failure("'\(try text(call, 0))' is not an ISO 8601 date-time") }
            return .int(Int((date.timeIntervalSince1970 * 1000).rounded()))
        },
        "time.epochMilliSecondsToSeconds": { _, call in
            try expect(1...1, call)
            return .int(CivilDate.floorDivide(try milliseconds(call, 0), 1000).0)
        },
        "time.epochMilliSecondsToISO8601": { _, call in
            try expect(1...1, call)
            return .string(AWSDateTimeFormat.string(fromMilliseconds: try milliseconds(call, 0)))
        },
    ]

    /// The rendering's clock, in milliseconds since the epoch.
    private static func now(_ e: VTLEvaluation) -> Int {
        Int((e.runtime.clock().timeIntervalSince1970 * 1000).rounded(.down))
    }

    private static func expect(_ counts: ClosedRange<Int>, _ call: VTLUtilCall) throws {
        guard counts.contains(call.arguments.count) else {
            throw call.failure("takes \(counts.lowerBound)\(counts.count > 1 ? " or \(counts.upperBound)" : "") argument(s), got \(call.arguments.count)")
        }
    }

    private static func text(_ call: VTLUtilCall, _ offset: Int) throws -> String {
        guard case .string(let text) = call.arguments[offset] else { throw call.failure("argument \(offset + 1) must be a string") }
        return text
    }

    private static func milliseconds(_ call: VTLUtilCall, _ offset: Int) throws -> Int {
        switch call.arguments[offset] {
        case .int(let value): return value
        case .double(let value) where value.isFinite && abs(value) < 9e15: return Int(value)
        default: throw call.failure("argument \(offset + 1) must be milliseconds since the epoch")
        }
    }

    private static func pattern(_ call: VTLUtilCall, _ offset: Int) throws -> VTLDateTimePattern {
        do {
            return try VTLDateTimePattern(try text(call, offset))
        } catch let failure as VTLDateTimePattern.Failure {
            throw call.failure(failure.message)
        }
    }

    private static func zone(_ call: VTLUtilCall, _ offset: Int) throws -> VTLTimeZone? {
        guard call.arguments.count > offset else { return nil }
        let id = try text(call, offset)
        guard let zone = VTLTimeZone.named(id) else { throw call.failure("'\(id)' is no zone: give an offset (+08:00) or a region (America/New_York)") }
        return zone
    }

    private static func parseISO8601(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
