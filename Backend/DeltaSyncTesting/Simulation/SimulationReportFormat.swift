import DeltaSyncCore

/// How a scenario's run is reported: text for people, JSON for tools, JUnit XML for CI.
public enum SimulationReportFormat: String, Sendable, CaseIterable {
    case text, json, junit

    /// The report of a run of `scenario` (its file name) with `steps` steps in all.
    public func render(_ report: ScenarioReport, scenario: String, steps: Int) -> String {
        switch self {
        case .text: return Self.text(report, steps: steps)
        case .json: return Self.json(report, scenario: scenario, steps: steps).jsonText
        case .junit: return Self.junit(report, scenario: scenario, steps: steps)
        }
    }

    static func text(_ report: ScenarioReport, steps: Int) -> String {
        var lines = report.results.map { result in
            let mark = result.failure == nil ? "ok  " : "FAIL"
            return "\(mark) line \(result.line): \(result.step) (\(Self.milliseconds(result.duration)) ms)"
                + (result.failure.map { "\n     \($0)" } ?? "")
        }
        let skipped = steps - report.results.count
        lines.append(report.passed ? "passed: \(steps) steps" : "failed at step \(report.results.count) of \(steps)" + (skipped > 0 ? ", \(skipped) not run" : ""))
        return lines.joined(separator: "\n")
    }

    static func json(_ report: ScenarioReport, scenario: String, steps: Int) -> JSONValue {
        [
            "scenario": .string(scenario), "passed": .bool(report.passed), "steps": .int(steps),
            "results": .array(report.results.map { result in
                [
                    "line": .int(result.line), "step": .string(result.step), "milliseconds": .double(Self.milliseconds(result.duration)),
                    "failure": result.failure.map(JSONValue.string) ?? .null,
                ]
            }),
        ]
    }

    static func junit(_ report: ScenarioReport, scenario: String, steps: Int) -> String {
        let failures = report.results.filter { $0.failure != nil }.count
        let seconds = report.results.reduce(Duration.zero) { $0 + $1.duration }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuite name="\#(escape(scenario))" tests="\#(steps)" failures="\#(failures)" skipped="\#(steps - report.results.count)" time="\#(Self.milliseconds(seconds) / 1000)">"# + "\n"
        for result in report.results {
            xml += #"  <testcase name="line \#(result.line): \#(escape(result.step))" time="\#(Self.milliseconds(result.duration) / 1000)""#
            if let failure = result.failure {
                xml += ">\n    <failure message=\"\(escape(failure))\"/>\n  </testcase>\n"
            } else {
                xml += "/>\n"
            }
        }
        return xml + "</testsuite>"
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return ((Double(seconds) * 1000 + Double(attoseconds) / 1e15) * 10).rounded() / 10
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
