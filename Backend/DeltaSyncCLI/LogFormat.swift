import ArgumentParser

/// `--log-format` values.
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    /// swift-log's default: `2026-11-26T09:14:03+0000 info deltasync: message`.
    case text
    /// ``JSONLogHandler``'s lines.
    case json
}
