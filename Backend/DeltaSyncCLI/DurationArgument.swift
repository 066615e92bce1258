import ArgumentParser
import Foundation

/// A duration flag: a number with a unit (`500ms`, `90s`, `30m`, `12h`, `30d`), or a bare
/// number of minutes, the unit AppSync's TTL settings use.
struct DurationArgument: ExpressibleByArgument, Sendable {
    let duration: Duration

    init(_ duration: Duration) {
        self.duration = duration
    }

    init?(argument: String) {
        let units: [(suffix: String, milliseconds: Double)] = [
            ("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000),
        ]
        let text = argument.trimmingCharacters(in: .whitespaces).lowercased()
        let unit = units.first { text.hasSuffix($0.suffix) && Double(text.dropLast($0.suffix.count)) != nil }
        let number = unit.map { Double(text.dropLast($0.suffix.count)) } ?? Double(text)
        guard let number, number >= 0, number.isFinite else { return nil }
        let milliseconds = (number * (unit?.milliseconds ?? 60_000)).rounded()
        // Past Int64 (some 292 million years) the conversion would trap.
        guard milliseconds < Double(Int64.max) else { return nil }
        duration = .milliseconds(Int64(milliseconds))
    }

    /// The largest unit that states the duration exactly: `30d`, `30m`, `1500ms`.
    var defaultValueDescription: String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        let units: [(suffix: String, milliseconds: Int64)] = [("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000)]
        for unit in units where milliseconds != 0 && milliseconds % unit.milliseconds == 0 {
            return "\(milliseconds / unit.milliseconds)\(unit.suffix)"
        }
        return "\(milliseconds)ms"
    }
}
