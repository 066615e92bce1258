import DeltaSyncClient
import DeltaSyncCore
import Foundation
import NIOConcurrencyHelpers

/// Everything that happened in a simulation, in order, with when: each step, each device's sync
/// events and the errors it was told of. A failed run's timeline shows what led to it
/// (``html(title:conflicts:)`` writes it as a page).
///
/// ```swift
/// // let page = simulation.timeline.html(title: "offline-edits.yaml", conflicts: try await simulation.conflicts())
/// ```
public final class SimulationTimeline: Sendable {
    /// One thing that happened.
    public struct Entry: Sendable, Equatable {
        public enum Kind: String, Sendable {
            /// A scenario step began.
            case step
            /// A scenario step failed.
            case failure
            /// A device's sync event.
            case event
            /// An error a device's store reported.
            case error
        }

        /// Since the simulation started.
        public let at: Duration
        /// `steps`, or the device's name.
        public let lane: String
        public let kind: Kind
        public let text: String
    }

    private let start = ContinuousClock.now
    private let recorded = NIOLockedValueBox<[Entry]>([])

    init() {}

    /// Every entry so far, oldest first.
    public var entries: [Entry] { recorded.withLockedValue { $0 } }

    /// The timeline as plain text, a line per entry: `12.5 ms  phone  sent update Todo t1 v2`.
    public var text: String {
        entries.map { "\(SimulationReportFormat.milliseconds($0.at)) ms  \($0.lane)  \($0.kind == .failure ? "FAILED: " : "")\($0.text)" }
            .joined(separator: "\n")
    }

    func record(_ lane: String, _ kind: Entry.Kind, _ text: String) {
        let entry = Entry(at: ContinuousClock.now - start, lane: lane, kind: kind, text: text)
        recorded.withLockedValue { $0.append(entry) }
    }

    /// An event as a line: `sent update Todo t1 → v2`.
    static func describe(_ event: DataStoreEvent) -> String {
        func change(_ verb: String, _ change: MutationEvent) -> String {
            "\(verb) \(change.mutationType.rawValue) \(change.modelName) \(change.modelID)" + (change.version.map { " v\($0)" } ?? "")
        }
        switch event {
        case .networkStatus(let active): return active ? "network up" : "network down"
        case .subscriptionsEstablished: return "subscribed"
        case .syncQueriesStarted(let models): return "sync started: \(models.joined(separator: ", "))"
        case .modelSynced(let synced):
            return "synced \(synced.modelName) (\(synced.isFullSync ? "base" : "delta")): +\(synced.added) ~\(synced.updated) -\(synced.deleted)"
        case .modelSyncRefused(let model, let reason): return "sync of \(model) refused: \(reason)"
        case .syncQueriesReady: return "sync queries done"
        case .ready: return "ready"
        case .outboxMutationEnqueued(let event): return change("queued", event) + " " + JSONValue.object(event.item).jsonText
        case .outboxMutationProcessed(let event): return change("sent", event)
        case .outboxStatus(let isEmpty): return isEmpty ? "outbox empty" : "outbox pending"
        case .conditionalSaveFailed(let event): return change("condition failed:", event)
        case .syncReceived(let event): return change("received", event)
        case .outboxMutationDropped(let error): return "dropped from the outbox: \(error)"
        }
    }
}
