import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's basic context plus the address the
/// request came from, which `/metrics` checks (``MetricsRoute``).
///
/// `remoteAddress` is `nil` for a request that never crossed a socket (HummingbirdTesting's
/// `.router` mode): an in-process caller.
struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
