import CoreMetrics
import DeltaSyncGraphQL
import DeltaSyncRealtime
import NIOConcurrencyHelpers
import Prometheus

/// The server's metrics, recorded through swift-metrics into a Prometheus registry of this
/// server's own (two servers in one process never mix their figures), and served as
/// Prometheus text at `/metrics`:
///
/// - `deltasync_requests_total{operation,outcome}` and `deltasync_request_duration_seconds`
///   (histogram) for GraphQL over HTTP, `operation` being the root field (`createPost`);
/// - `deltasync_conflicts_total{handler,outcome}`;
/// - `deltasync_sync_pages_total{source}` and `deltasync_sync_items_total{source}`;
/// - `deltasync_realtime_connections`, `deltasync_realtime_subscriptions` (gauges),
///   `deltasync_realtime_events_sent_total`, `deltasync_realtime_events_dropped_total`.
final class ServerMetrics: SyncMetrics {
    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// Handles by label values: creating one goes through the registry's lock and names.
    private let requests = NIOLockedValueBox<[RequestKey: (count: CoreMetrics.Counter, duration: Timer)]>([:])
    private let conflicts = NIOLockedValueBox<[String: CoreMetrics.Counter]>([:])
    private let pages: [String: (pages: CoreMetrics.Counter, items: CoreMetrics.Counter)]
    private let connections: CoreMetrics.Gauge
    private let subscriptions: CoreMetrics.Gauge
    private let eventsSent: CoreMetrics.Counter
    private let eventsDropped: CoreMetrics.Counter
    /// The realtime event counts already added to the counters.
    private let reported = NIOLockedValueBox((sent: 0, dropped: 0))

    private struct RequestKey: Hashable {
        let operation: String
        let outcome: String
    }

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        // 0.5 ms to 10 s: a local server's requests sit at the low end.
        factory.defaultDurationHistogramBuckets = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
            .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(10),
        ]
        self.factory = factory
        var pages: [String: (CoreMetrics.Counter, CoreMetrics.Counter)] = [:]
        for source in ["base", "delta"] {
            pages[source] = (
                CoreMetrics.Counter(label: "deltasync_sync_pages_total", dimensions: [("source", source)], factory: factory),
                CoreMetrics.Counter(label: "deltasync_sync_items_total", dimensions: [("source", source)], factory: factory)
            )
        }
        self.pages = pages
        connections = CoreMetrics.Gauge(label: "deltasync_realtime_connections", factory: factory)
        subscriptions = CoreMetrics.Gauge(label: "deltasync_realtime_subscriptions", factory: factory)
        eventsSent = CoreMetrics.Counter(label: "deltasync_realtime_events_sent_total", factory: factory)
        eventsDropped = CoreMetrics.Counter(label: "deltasync_realtime_events_dropped_total", factory: factory)
    }

    /// One GraphQL request over HTTP.
    func request(operation: String, outcome: String, duration: Duration) {
        let key = RequestKey(operation: operation, outcome: outcome)
        let handles = requests.withLockedValue { handles in
            if let found = handles[key] { return found }
            let made = (
                CoreMetrics.Counter(label: "deltasync_requests_total", dimensions: [("operation", operation), ("outcome", outcome)], factory: factory),
                CoreMetrics.Timer(label: "deltasync_request_duration_seconds", dimensions: [("operation", operation)], factory: factory)
            )
            handles[key] = made
            return made
        }
        handles.count.increment()
        handles.duration.record(duration: duration)
    }

    func conflict(handler: String, outcome: String) {
        let key = handler + "/" + outcome
        let counter = conflicts.withLockedValue { counters in
            if let found = counters[key] { return found }
            let made = CoreMetrics.Counter(label: "deltasync_conflicts_total", dimensions: [("handler", handler), ("outcome", outcome)], factory: factory)
            counters[key] = made
            return made
        }
        counter.increment()
    }

    func syncPage(source: String, items: Int) {
        guard let counters = pages[source] else { return }
        counters.pages.increment()
        counters.items.increment(by: items)
    }

    /// The Prometheus text exposition, with the realtime figures read now.
    func exposition(realtime: RealtimeEndpoint) -> [UInt8] {
        connections.record(realtime.connections.count)
        subscriptions.record(realtime.registry.subscriptionCount)
        let now = realtime.registry.eventCounts
        let (sent, dropped) = reported.withLockedValue { reported in
            defer { reported = (now.sent, now.dropped) }
            return (now.sent - reported.sent, now.dropped - reported.dropped)
        }
        if sent > 0 { eventsSent.increment(by: sent) }
        if dropped > 0 { eventsDropped.increment(by: dropped) }
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }
}
