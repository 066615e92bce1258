import NIOConcurrencyHelpers
import NIOCore

/// The open connections of the HTTP port, so their number stays under a limit that leaves the
/// process descriptors to accept with: a server out of descriptors cannot even answer `/health`.
///
/// At the limit a new connection takes the slot of the connection idle the longest (RFC 9112
/// 9.8 lets a server close an idle connection at any time; clients reopen one), so idle sockets
/// cannot lock anyone out. Only when every slot is busy is the new connection closed.
final class ConnectionRegistry: Sendable {
    private struct Entry {
        let channel: any Channel
        /// When the connection last had no request in progress; `nil` while one is.
        var idleSince: NIODeadline?
        var isWebSocket = false
    }

    /// Most connections open at once.
    let capacity: Int
    /// Most WebSockets open at once: ``capacity`` less the slots kept for HTTP.
    let webSocketCapacity: Int
    private let entries = NIOLockedValueBox<[ObjectIdentifier: Entry]>([:])

    init(configuration: ConnectionConfiguration) {
        capacity = max(1, configuration.maxConnections ?? OpenFileLimit.soft - configuration.reservedDescriptors)
        webSocketCapacity = max(0, capacity - configuration.reservedForHTTP)
    }

    /// The number of open connections.
    var count: Int { entries.withLockedValue { $0.count } }

    /// Registers a newly accepted connection, closing the longest-idle one if there is no room.
    ///
    /// - Returns: `false` when every slot is busy; the caller closes `channel`.
    func admit(_ channel: any Channel) -> Bool {
        let id = ObjectIdentifier(channel)
        let (admitted, evicted) = entries.withLockedValue { entries -> (Bool, (any Channel)?) in
            var evicted: (any Channel)?
            if entries.count >= capacity {
                let idle = entries.filter { !$0.value.isWebSocket && $0.value.idleSince != nil }
                guard let oldest = idle.min(by: { $0.value.idleSince! < $1.value.idleSince! }) else { return (false, nil) }
                evicted = entries.removeValue(forKey: oldest.key)?.channel
            }
            entries[id] = Entry(channel: channel, idleSince: .now())
            return (true, evicted)
        }
        evicted?.close(promise: nil)
        if admitted {
            channel.closeFuture.whenComplete { _ in self.entries.withLockedValue { _ = $0.removeValue(forKey: id) } }
        }
        return admitted
    }

    /// The connection has no request in progress: it may be closed to make room.
    func markIdle(_ channel: any Channel) {
        entries.withLockedValue { $0[ObjectIdentifier(channel)]?.idleSince = .now() }
    }

    /// A request is in progress on the connection.
    func markBusy(_ channel: any Channel) {
        entries.withLockedValue { $0[ObjectIdentifier(channel)]?.idleSince = nil }
    }

    /// Marks the connection as a WebSocket, which is never closed to make room.
    ///
    /// - Throws: 503 when WebSockets already hold every slot not kept for HTTP.
    func admitWebSocket(_ channel: any Channel) throws(RequestRejection) {
        let admitted = entries.withLockedValue { entries in
            guard entries.values.count(where: \.isWebSocket) < webSocketCapacity else { return false }
            entries[ObjectIdentifier(channel)]?.isWebSocket = true
            entries[ObjectIdentifier(channel)]?.idleSince = nil
            return true
        }
        guard admitted else { throw .tooManyWebSockets }
    }
}
