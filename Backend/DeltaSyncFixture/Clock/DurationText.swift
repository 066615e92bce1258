import DeltaSyncGraphQL
import Foundation

/// Durations as people type them: a number with a unit (`500ms`, `90s`, `30m`, `12h`, `30d`).
/// Command-line flags and the fixture API read them the same way.
///
/// ```swift
/// DurationText.parse("30m")                          // .seconds(1800)
/// DurationText.parse("90", bareUnit: .seconds(1))    // .seconds(90)
/// ```
public enum DurationText {
    private static let units: [(suffix: String, milliseconds: Double)] = [
        ("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000),
    ]

    /// The duration `text` names, or `nil`. A bare number counts in `bareUnit`; negative,
    /// infinite and absurdly long durations are `nil`.
    public static func parse(_ text: String, bareUnit: Duration = .seconds(60)) -> Duration? {
        let text = text.trimmingCharacters(in: .whitespaces).lowercased()
        let unit = units.first { text.hasSuffix($0.suffix) && Double(text.dropLast($0.suffix.count)) != nil }
        let number = unit.map { Double(text.dropLast($0.suffix.count)) } ?? Double(text)
        guard let number, number >= 0, number.isFinite else { return nil }
        let milliseconds = (number * (unit?.milliseconds ?? Double(bareUnit.milliseconds))).rounded()
        // Past Int64 (some 292 million years) the conversion would trap.
        guard milliseconds < Double(Int64.max) else { return nil }
        return .milliseconds(Int64(milliseconds))
    }

    /// The largest unit that states the duration exactly: `30d`, `30m`, `1500ms`.
    public static func describe(_ duration: Duration) -> String {
        let milliseconds = duration.milliseconds
        for unit in units.reversed() where unit.suffix != "ms" {
            let size = Int(unit.milliseconds)
            if milliseconds != 0, milliseconds % size == 0 { return "\(milliseconds / size)\(unit.suffix)" }
        }
        return "\(milliseconds)ms"
    }
}
