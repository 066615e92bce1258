import ArgumentParser
import DeltaSyncServer

/// A duration flag: a number with a unit (`500ms`, `90s`, `30m`, `12h`, `30d`), or a bare
/// number of minutes, the unit AppSync's TTL settings use.
struct DurationArgument: ExpressibleByArgument, Sendable {
    let duration: Duration

    init(_ duration: Duration) {
        self.duration = duration
    }

    init?(argument: String) {
        guard let duration = DurationText.parse(argument, bareUnit: .seconds(60)) else { return nil }
        self.duration = duration
    }

    var defaultValueDescription: String { DurationText.describe(duration) }
}
