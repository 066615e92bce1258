import DeltaSyncCore
import DeltaSyncStorage
import Foundation

extension SimulationTimeline {
    /// The timeline as a self-contained HTML page: one column per lane (the steps, then each
    /// device), one row per entry, failures and errors marked; then the server's conflict log.
    public func html(title: String, conflicts: [ConflictRecord] = []) -> String {
        let entries = self.entries
        var lanes = ["steps"]
        for entry in entries where !lanes.contains(entry.lane) { lanes.append(entry.lane) }
        let escape = SimulationReportFormat.escape
        var rows: [String] = []
        for entry in entries {
            let milliseconds = SimulationReportFormat.milliseconds(entry.at)
            let cells = lanes.map { lane in
                lane == entry.lane ? "<td class=\"\(entry.kind.rawValue)\">\(escape(entry.text))</td>" : "<td></td>"
            }
            rows.append("<tr><td class=\"at\">\(milliseconds)</td>\(cells.joined())</tr>")
        }
        let conflictRows = conflicts.map { record in
            "<tr><td>\(escape(record.model))</td><td>\(escape(JSONValue.object(record.key).jsonText))</td>"
                + "<td>\(escape(record.mutation))</td><td>\(record.incomingVersion)</td><td>\(record.storedVersion)</td>"
                + "<td>\(escape(record.handler))</td><td\(record.outcome.hasPrefix("error") ? " class=\"error\"" : "")>"
                + "\(escape(record.outcome))</td><td>\(record.resultVersion.map(String.init) ?? "")</td></tr>"
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escape(title)): timeline</title>
            <style>
            body { font: 13px system-ui, sans-serif; margin: 1.5em; }
            table { border-collapse: collapse; margin-bottom: 2em; }
            th, td { border: 1px solid #ddd; padding: 3px 6px; vertical-align: top; text-align: left; }
            th { background: #f4f4f4; position: sticky; top: 0; }
            td.at { color: #666; text-align: right; font-variant-numeric: tabular-nums; }
            td.step { background: #eef4ff; font-weight: 600; }
            td.failure { background: #ffe3e3; font-weight: 600; }
            td.error { background: #fff3d6; }
            </style></head><body>
            <h1>\(escape(title))</h1>
            <h2>Timeline</h2>
            <table><thead><tr><th>ms</th>\(lanes.map { "<th>\(escape($0))</th>" }.joined())</tr></thead>
            <tbody>
            \(rows.joined(separator: "\n"))
            </tbody></table>
            <h2>Conflict log</h2>
            <table><thead><tr><th>model</th><th>key</th><th>mutation</th><th>sent version</th><th>stored version</th><th>handler</th><th>outcome</th><th>result version</th></tr></thead>
            <tbody>
            \(conflictRows.isEmpty ? "<tr><td colspan=\"8\">no conflicts</td></tr>" : conflictRows.joined(separator: "\n"))
            </tbody></table>
            </body></html>

            """
    }
}
