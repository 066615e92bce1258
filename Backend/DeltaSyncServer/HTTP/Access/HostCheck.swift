import DeltaSyncCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOHTTP1

/// Refuses requests whose `Host` is not a name of this machine while the server listens on a
/// loopback address: the defence against DNS rebinding that webpack's dev server and Vite use.
///
/// A page on `http://evil.example` can make its own name resolve to `127.0.0.1` and then send
/// requests to this server that the browser treats as same-origin: they carry
/// `Host: evil.example:20002`. A name the page cannot control answers no such request. Allowed:
/// `localhost`, `*.localhost`, any IP address (no DNS lookup is involved in reaching one, so it
/// cannot be rebound: `10.0.2.2` from the Android emulator works), and the names of
/// ``ServerConfiguration/allowedHosts`` (`--allowed-host`), with any port. A request without a
/// `Host` (HTTP/1.0) is not a browser's and passes.
///
/// A server listening beyond loopback (`0.0.0.0` in a container) has no such check: it is
/// meant to be reached by whatever name points at it.
///
/// ```swift
/// let check = HostCheck(listeningOn: "127.0.0.1", allowedHosts: ["dev.example.test"])
/// check?.allows("localhost:20002")          // true
/// check?.allows("evil.example:20002")       // false
/// ```
struct HostCheck: Sendable {
    /// Lower-cased names; one that starts with `.` allows its subdomains and itself.
    let allowedHosts: [String]

    /// `nil` when `host` (the interface the server listens on) is not a loopback address.
    init?(listeningOn host: String, allowedHosts: [String]) {
        guard Self.isLoopbackInterface(host) else { return nil }
        self.allowedHosts = allowedHosts.map { $0.lowercased() }
    }

    /// Whether a request with this `Host` header (`name[:port]`) may be answered.
    func allows(_ authority: String?) -> Bool {
        guard let authority, !authority.isEmpty else { return true }
        let name = Self.hostName(authority)
        if name == "localhost" || name.hasSuffix(".localhost") || Self.isIPAddress(name) { return true }
        return allowedHosts.contains { allowed in
            allowed.hasPrefix(".") ? name == allowed.dropFirst() || name.hasSuffix(allowed) : name == allowed
        }
    }

    /// The refusal of a request for `authority`: 403, and how to allow the name.
    func refusal(_ authority: String) -> AppSyncError {
        let name = Self.hostName(authority)
        return AppSyncError(
            "ForbiddenException",
            "Host '\(authority)' is not a name of this machine: a server listening on a loopback address answers requests for localhost, *.localhost and IP addresses only (a defence against DNS rebinding). To reach it as '\(name)', start it with --allowed-host \(name).")
    }

    // MARK: - Names

    /// `name` of `name:port`, `[::1]:port` or `name`, lower-cased, without a trailing dot.
    static func hostName(_ authority: String) -> String {
        var name = Substring(authority.lowercased())
        if name.hasPrefix("[") {
            name = name.prefix { $0 != "]" } + "]"
        } else if let colon = name.lastIndex(of: ":") {
            name = name[..<colon]
        }
        if name.hasSuffix(".") { name = name.dropLast() }
        return String(name)
    }

    /// A dotted IPv4 address or a bracketed IPv6 address.
    static func isIPAddress(_ name: String) -> Bool {
        if name.hasPrefix("[") && name.hasSuffix("]") {
            return name.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber) && Int(part)! <= 255
        }
    }

    /// `localhost`, `127.x.x.x`, `::1`.
    static func isLoopbackInterface(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: ["[", "]"])
        return host == "localhost" || host == "::1" || (isIPAddress(host) && host.hasPrefix("127."))
    }
}

extension HostCheck {
    /// The check in front of every route.
    struct Middleware: RouterMiddleware {
        typealias Context = ServerRequestContext
        let check: HostCheck

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            if let authority = request.head.authority, !check.allows(authority) {
                throw HTTPErrorResponse(status: .forbidden, error: check.refusal(authority))
            }
            return try await next(request, context)
        }
    }

    /// The check of a realtime WebSocket upgrade, which never reaches the routes.
    ///
    /// - Throws: ``RequestRejection`` (403) for a `Host` that is not allowed.
    func admitUpgrade(_ request: HTTPRequest) throws {
        if let authority = request.authority, !allows(authority) {
            let error = refusal(authority)
            throw RequestRejection(.forbidden, error.message, errorType: error.errorType)
        }
    }
}
