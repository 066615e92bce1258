import DeltaSyncCore

/// A DynamoDB number (`N`): an integer when the value is integral and fits in `Int`, else a
/// double. Equal numbers are equal whatever their spelling (`"1"`, `"1.0"`, `1`), so sets and
/// comparisons treat them as DynamoDB does.
///
/// ```swift
/// DynamoDBNumber(text: "12.0")?.jsonValue  // .int(12)
/// DynamoDBNumber(1) + DynamoDBNumber(0.5)  // 1.5
/// ```
public struct DynamoDBNumber: Sendable, Hashable, Comparable, CustomStringConvertible {
    private enum Storage: Sendable, Hashable {
        case int(Int)
        case double(Double)
    }

    private let storage: Storage

    /// An integer.
    public init(_ value: Int) { storage = .int(value) }

    /// A double; an integral one within `Int`'s range is kept as an integer.
    public init(_ value: Double) {
        if value.rounded() == value, abs(value) < 9.2e18 {
            storage = .int(Int(value))
        } else {
            storage = .double(value)
        }
    }

    /// The number a DynamoDB `N` string spells (`"12"`, `"-3.5"`, `"1e3"`); `nil` for anything
    /// else, infinities and NaN included.
    public init?(text: String) {
        let trimmed = text.trimmingWhitespace
        if let integer = Int(trimmed) {
            self.init(integer)
        } else if let double = Double(trimmed), double.isFinite, !trimmed.isEmpty,
            trimmed.allSatisfy({ $0.isNumber || "+-.eE".contains($0) })
        {
            self.init(double)
        } else {
            return nil
        }
    }

    /// The number of a JSON number; `nil` for other values.
    public init?(json: JSONValue) {
        switch json {
        case .int(let value): self.init(value)
        case .double(let value) where value.isFinite: self.init(value)
        default: return nil
        }
    }

    /// The plain value AppSync hands templates: `.int` when integral, else `.double`.
    public var jsonValue: JSONValue {
        switch storage {
        case .int(let value): return .int(value)
        case .double(let value): return .double(value)
        }
    }

    /// The `N` string of DynamoDB JSON.
    public var description: String {
        switch storage {
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        }
    }

    var doubleValue: Double {
        switch storage {
        case .int(let value): return Double(value)
        case .double(let value): return value
        }
    }

    /// Numeric order, across integers and doubles.
    public static func < (lhs: DynamoDBNumber, rhs: DynamoDBNumber) -> Bool {
        if case .int(let a) = lhs.storage, case .int(let b) = rhs.storage { return a < b }
        return lhs.doubleValue < rhs.doubleValue
    }

    /// The sum; an integer sum that overflows becomes a double.
    public static func + (lhs: DynamoDBNumber, rhs: DynamoDBNumber) -> DynamoDBNumber {
        if case .int(let a) = lhs.storage, case .int(let b) = rhs.storage {
            let (sum, overflow) = a.addingReportingOverflow(b)
            if !overflow { return DynamoDBNumber(sum) }
        }
        return DynamoDBNumber(lhs.doubleValue + rhs.doubleValue)
    }

    /// The difference; an integer difference that overflows becomes a double.
    public static func - (lhs: DynamoDBNumber, rhs: DynamoDBNumber) -> DynamoDBNumber {
        if case .int(let a) = lhs.storage, case .int(let b) = rhs.storage {
            let (difference, overflow) = a.subtractingReportingOverflow(b)
            if !overflow { return DynamoDBNumber(difference) }
        }
        return DynamoDBNumber(lhs.doubleValue - rhs.doubleValue)
    }
}

extension String {
    var trimmingWhitespace: Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
