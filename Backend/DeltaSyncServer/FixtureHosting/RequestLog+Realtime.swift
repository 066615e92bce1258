import DeltaSyncFixture
import DeltaSyncRealtime
import Foundation

extension RequestLog {
    /// Logs a realtime `start`.
    @Sendable func appendStart(_ report: StartReport) {
        append(Entry(start: report))
    }
}

extension RequestLog.Entry {
    /// A realtime `start`: `subscription onCreatePost`, its outcome and how long starting took.
    init(start report: StartReport) {
        let (mode, who) = RequestLog.describe(report.identity)
        self.init(
            at: Int((Date().timeIntervalSince1970 * 1000).rounded()), operation: "subscription \(report.field ?? "(not started)")",
            authMode: mode, identity: who, outcome: report.errorTypes.isEmpty ? "ok" : report.errorTypes.joined(separator: ", "),
            durationMilliseconds: Double(report.duration.components.seconds) * 1000 + Double(report.duration.components.attoseconds) / 1e15)
    }
}
