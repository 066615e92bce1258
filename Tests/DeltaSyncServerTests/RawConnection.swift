#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

extension Tag {
    /// Tests that wait for a server timer (with short configured timeouts); run serially so a
    /// busy machine does not make them race each other.
    @Tag static var timing: Tag
}

/// A plain TCP connection for bytes no HTTP or WebSocket library would send. Every read has a
/// deadline, so a server that never answers fails the test instead of hanging the suite.
///
/// The socket calls block, so they run on a Dispatch thread: blocking the cooperative pool (two
/// threads on a two-core machine) would stall the in-process server under test.
/// One test uses a connection at a time.
final class RawConnection: @unchecked Sendable {
    private let descriptor: Int32
    /// Everything read so far.
    private(set) var received: [UInt8] = []
    /// The server closed the connection (end of stream or reset).
    private(set) var closed = false

    /// - Parameter address: the server's IPv4 address; loopback unless a test needs another.
    init(port: Int, address host: String = "127.0.0.1") throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            close(descriptor)
            throw TestFailure("connect to port \(port) failed: errno \(errno)")
        }
    }

    deinit { close(descriptor) }

    /// Sends bytes; stops quietly if the server has closed (the test then reads what it said).
    func send(_ bytes: [UInt8]) async {
        await offThePool { self.sendBlocking(bytes) }
    }

    func send(_ text: String) async { await send(Array(text.utf8)) }

    /// How long a read waits for what the test expects by default: only a server that never
    /// answers waits it out, so it is long enough for a server answering on two cores busy with
    /// the parallel run (5 s was not: requests that take milliseconds alone read nothing).
    static let answerLimit: Duration = .seconds(30)

    /// Reads until `done(received)` holds, the server closes, or `timeout` passes.
    @discardableResult
    func read(until done: @escaping @Sendable ([UInt8]) -> Bool = { _ in false }, timeout: Duration = RawConnection.answerLimit) async -> [UInt8] {
        await offThePool { self.readBlocking(until: done, timeout: timeout) }
    }

    private func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }

    private func sendBlocking(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { buffer in
                #if canImport(Glibc)
                Glibc.send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
                #else
                Darwin.send(descriptor, buffer.baseAddress, buffer.count, 0)
                #endif
            }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    private func readBlocking(until done: ([UInt8]) -> Bool, timeout: Duration) -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while !closed, !done(received) {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { break }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            guard poll(&poller, 1, milliseconds) > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 {
                closed = true
            } else {
                received += chunk[..<count]
            }
        }
        return received
    }

    /// Reads until the server closes the connection or `timeout` passes.
    @discardableResult
    func readUntilClosed(timeout: Duration = RawConnection.answerLimit) async -> [UInt8] {
        await read(timeout: timeout)
    }

    /// What was received, as text (bytes that are not UTF-8 replaced).
    var text: String { String(decoding: received, as: UTF8.self) }

    /// The first line received, e.g. `HTTP/1.1 400 Bad Request`.
    var statusLine: String { text.components(separatedBy: "\r\n").first ?? "" }

    /// Reads one complete HTTP response (head and `Content-Length` body) from what arrives.
    func readResponse(timeout: Duration = RawConnection.answerLimit) async -> String {
        await read(until: { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n") else { return false }
            let head = text[..<end.lowerBound].lowercased()
            guard let line = head.components(separatedBy: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
                let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
            else { return true }
            return text[end.upperBound...].utf8.count >= length
        }, timeout: timeout)
        return text
    }
}
