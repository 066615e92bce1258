import DeltaSyncCore
import Foundation
import Logging

/// `serve --log-format json`: one JSON object per line on stderr, as log collectors (Docker's
/// json-file driver, Loki, CloudWatch) read them:
///
/// ```json
/// {"timestamp":"2026-11-26T09:14:03.512Z","level":"info","label":"deltasync","message":"...","fix":"--api-key"}
/// ```
///
/// Metadata becomes string fields beside the four fixed ones; nested metadata is flattened with
/// dotted names (`request.id`), and a key that collides with a fixed field gets `metadata.` in
/// front.
struct JSONLogHandler: LogHandler {
    static let fixedFields: Set<String> = ["timestamp", "level", "label", "message"]

    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    /// Where lines go; one write per line, under a lock, so lines never interleave.
    private let output: @Sendable ([UInt8]) -> Void

    init(label: String, metadataProvider: Logger.MetadataProvider? = nil, output: @escaping @Sendable ([UInt8]) -> Void = JSONLogHandler.standardError) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.output = output
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let given = event.metadata { merged.merge(given) { _, new in new } }
        output(Self.line(
            timestamp: Date(), level: event.level, label: label, message: event.message.description, metadata: merged))
    }

    /// One log line: the fixed fields first, then the metadata's by name, then a newline.
    static func line(timestamp: Date, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata) -> [UInt8] {
        var fields: [(String, String)] = []
        flatten(metadata, prefix: "", into: &fields)
        var out: [UInt8] = []
        out.reserveCapacity(128 + message.utf8.count)
        out.append(UInt8(ascii: "{"))
        func field(_ name: String, _ value: String) {
            if out.count > 1 { out.append(UInt8(ascii: ",")) }
            JSONWriter.writeString(name, to: &out)
            out.append(UInt8(ascii: ":"))
            JSONWriter.writeString(value, to: &out)
        }
        field("timestamp", timestamp.formatted(Self.timestampStyle))
        field("level", level.rawValue)
        field("label", label)
        field("message", message)
        for (name, value) in fields.sorted(by: { $0.0 < $1.0 }) {
            field(fixedFields.contains(name) ? "metadata.\(name)" : name, value)
        }
        out.append(contentsOf: Array("}\n".utf8))
        return out
    }

    /// ISO 8601 in UTC with milliseconds: `2026-11-26T09:14:03.512Z`.
    private static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    private static func flatten(_ metadata: Logger.Metadata, prefix: String, into fields: inout [(String, String)]) {
        for (key, value) in metadata {
            let name = prefix + key
            switch value {
            case .dictionary(let nested) where !nested.isEmpty:
                flatten(nested, prefix: name + ".", into: &fields)
            default:
                fields.append((name, text(value)))
            }
        }
    }

    private static func text(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let string): return string
        case .stringConvertible(let convertible): return convertible.description
        case .array(let values): return "[" + values.map(text).joined(separator: ", ") + "]"
        case .dictionary(let values): return "[" + values.sorted { $0.key < $1.key }.map { "\($0.key): \(text($0.value))" }.joined(separator: ", ") + "]"
        }
    }

    private static let lock = NSLock()

    /// Writes a line to stderr in one call.
    @Sendable static func standardError(_ line: [UInt8]) {
        lock.withLock {
            FileHandle.standardError.write(Data(line))
        }
    }
}
