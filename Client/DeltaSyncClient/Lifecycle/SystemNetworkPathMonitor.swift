#if canImport(Network)
import Network

/// The device's network path as `NWPathMonitor` reports it: available when the path is
/// `satisfied` (Wi-Fi, cellular, wired or a VPN, with the system's own rules for each). The
/// default ``DataStoreConfiguration/networkMonitor`` on Apple platforms.
///
/// ```swift
/// // Apple platforms
/// var configuration = DataStoreConfiguration(endpoint: SyncEndpoint(url: url, apiKey: "da2-fakeApiId123456"))
/// configuration.networkMonitor = SystemNetworkPathMonitor()   // the default; nil turns it off
/// ```
public struct SystemNetworkPathMonitor: NetworkPathMonitor {
    /// Follows every interface the system would route through.
    public init() {}

    /// The current path's state at once, then each change, until the stream is dropped.
    public func pathUpdates() -> AsyncStream<Bool> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let monitor = NWPathMonitor()
            monitor.pathUpdateHandler = { path in continuation.yield(path.status == .satisfied) }
            continuation.onTermination = { _ in monitor.cancel() }
            monitor.start(queue: DispatchQueue(label: "DeltaSyncClient.networkPath"))
        }
    }
}
#endif
