import Logging
import NIOConcurrencyHelpers

/// A log that keeps what a server (or a function's process) wrote, so a test can check what an
/// operator would read, and await a line instead of sleeping.
public final class RecordedLog: Sendable {
    public struct Entry: Sendable {
        public let level: Logger.Level
        public let message: String
        /// The logger's metadata and the event's, as text.
        public let metadata: [String: String]

        /// The message and its metadata values, as one text to search.
        public var text: String { ([message] + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ") }
    }

    private let entries = NIOLockedValueBox<[Entry]>([])
    private let continuation: AsyncStream<Entry>.Continuation
    /// Every entry as it is logged.
    public let stream: AsyncStream<Entry>

    public init() {
        (stream, continuation) = AsyncStream.makeStream()
    }

    /// Every entry so far, in order.
    public var recorded: [Entry] { entries.withLockedValue { $0 } }

    /// A logger writing into this log at every level.
    public var logger: Logger {
        var logger = Logger(label: "recorded") { _ in Handler(destination: self) }
        logger.logLevel = .trace
        return logger
    }

    private struct Handler: LogHandler {
        let destination: RecordedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            let entry = Entry(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" })
            destination.entries.withLockedValue { $0.append(entry) }
            destination.continuation.yield(entry)
        }
    }
}
