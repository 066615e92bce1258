import Foundation

/// How the HTTP benchmarks print and summarise what they measured: unbuffered lines (a run that
/// is stopped still shows its figures), aligned rows, percentiles and durations in ms.
public enum BenchmarkReport {
    /// Writes `line` to standard output at once.
    public static func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

    /// `name` padded to one column, then `value`.
    public static func row(_ name: String, _ value: String) { say(name.padding(toLength: 58, withPad: " ", startingAt: 0) + value) }

    /// The `p` percentile (0...1) of `values`.
    public static func percentile(_ values: [Double], _ p: Double) -> Double {
        values.sorted()[min(values.count - 1, Int(Double(values.count) * p))]
    }

    /// The median of `values` (the upper one of an even count): what benchmarks that alternate
    /// rounds report, since one round on these machines can be off by a third.
    public static func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

    /// `duration` in milliseconds.
    public static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}

/// A benchmark that could not measure what it meant to (a request failed, a result was wrong).
public struct BenchmarkFailure: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) { self.description = description }
}
