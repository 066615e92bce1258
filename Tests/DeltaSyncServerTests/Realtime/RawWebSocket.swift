import Foundation

/// A realtime WebSocket over a ``RawConnection``, for frames a conforming client never sends:
/// unmasked, not UTF-8, or a message larger than the server takes.
struct RawWebSocket {
    let connection: RawConnection

    /// Opens a connection and upgrades it with the `graphql-ws` subprotocol and the API key.
    ///
    /// - Returns: the socket, and the upgrade response's status line.
    static func open(port: Int, apiKey: String = TestServer.apiKey) async throws -> (RawWebSocket, String) {
        let connection = try RawConnection(port: port)
        await connection.send(
            "GET /graphql HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Protocol: graphql-ws\r\nx-api-key: \(apiKey)\r\n\r\n")
        await connection.read(until: { String(decoding: $0, as: UTF8.self).contains("\r\n\r\n") })
        return (RawWebSocket(connection: connection), connection.statusLine)
    }

    /// Sends one frame; masked with a random key unless `masked` is false.
    func send(opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true) async {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        switch payload.count {
        case ..<126: frame.append(maskBit | UInt8(payload.count))
        case ..<65536: frame += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: frame += [maskBit | 127] + (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        if masked {
            let key = (0..<4).map { _ in UInt8.random(in: 0...255) }
            frame += key
            frame += payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
        } else {
            frame += payload
        }
        await connection.send(frame)
    }

    /// Reads server frames until a close frame and returns its status code, or `nil` if none
    /// arrives within `timeout` (or the connection ends without one).
    func closeCode(timeout: Duration = RawConnection.answerLimit) async -> UInt16? {
        guard let payload = await payload(of: 0x8, timeout: timeout) else { return nil }
        return payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : 1005
    }

    /// Reads server frames until one with `opcode` arrives and returns its payload, or `nil` if
    /// none arrives within `timeout` (or the connection ends without one).
    func payload(of opcode: UInt8, timeout: Duration = RawConnection.answerLimit) async -> [UInt8]? {
        let bytes = await connection.read(until: { Self.frames(in: $0).contains { $0.opcode == opcode } }, timeout: timeout)
        return Self.frames(in: bytes).first { $0.opcode == opcode }?.payload
    }

    /// The whole frames after the upgrade response in `bytes`.
    private static func frames(in bytes: [UInt8]) -> [(opcode: UInt8, payload: [UInt8])] {
        guard let headEnd = bytes.indices.dropLast(3).first(where: { bytes[$0..<$0 + 4] == [13, 10, 13, 10] }) else {
            return []
        }
        var frames: [(opcode: UInt8, payload: [UInt8])] = []
        var index = headEnd + 4
        while index + 2 <= bytes.count {
            let opcode = bytes[index] & 0x0F
            var length = Int(bytes[index + 1] & 0x7F)
            var payload = index + 2
            if length == 126 {
                guard payload + 2 <= bytes.count else { break }
                length = Int(bytes[payload]) << 8 | Int(bytes[payload + 1])
                payload += 2
            } else if length == 127 {
                guard payload + 8 <= bytes.count else { break }
                length = bytes[payload..<payload + 8].reduce(0) { $0 << 8 | Int($1) }
                payload += 8
            }
            guard payload + length <= bytes.count else { break }
            frames.append((opcode, Array(bytes[payload..<payload + length])))
            index = payload + length
        }
        return frames
    }
}
