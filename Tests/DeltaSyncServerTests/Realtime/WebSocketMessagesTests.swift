@testable import DeltaSyncRealtime
import NIOCore
import NIOWebSocket
import Testing

/// Frames made into messages as RFC 6455 has them: fragments joined, control frames between
/// them, and each violation with its close code.
struct WebSocketMessagesTests {
    static func frame(_ opcode: WebSocketOpcode, _ bytes: [UInt8], fin: Bool = true, reserved: WebSocketFrame.ReservedBits = []) -> WebSocketFrame {
        WebSocketFrame(fin: fin, rsv1: reserved.contains(.rsv1), opcode: opcode, maskKey: WebSocketMaskingKey([1, 2, 3, 4]),
            data: Self.masked(bytes))
    }

    /// The bytes as a client sends them, masked with the key above.
    static func masked(_ bytes: [UInt8]) -> ByteBuffer {
        let key: [UInt8] = [1, 2, 3, 4]
        return ByteBuffer(bytes: bytes.enumerated().map { $0.element ^ key[$0.offset % 4] })
    }

    @Test func aWholeTextFrameIsAMessage() {
        var messages = WebSocketMessages(maxSize: 100)
        #expect(messages.receive(Self.frame(.text, Array("héllo".utf8))) == .text("héllo"))
    }

    @Test func fragmentsAreJoinedAcrossAPing() {
        var messages = WebSocketMessages(maxSize: 100)
        #expect(messages.receive(Self.frame(.text, Array("ab".utf8), fin: false)) == .nothing)
        #expect(messages.receive(Self.frame(.ping, [7])) == .ping([7]))
        #expect(messages.receive(Self.frame(.continuation, Array("cd".utf8), fin: false)) == .nothing)
        #expect(messages.receive(Self.frame(.continuation, Array("e".utf8))) == .text("abcde"))
        // And the next message starts afresh.
        #expect(messages.receive(Self.frame(.text, Array("f".utf8))) == .text("f"))
    }

    @Test func aCharacterSplitAcrossFragmentsIsWhole() {
        var messages = WebSocketMessages(maxSize: 100)
        let bytes = Array("é".utf8)
        #expect(messages.receive(Self.frame(.text, [bytes[0]], fin: false)) == .nothing)
        #expect(messages.receive(Self.frame(.continuation, [bytes[1]])) == .text("é"))
    }

    @Test func violations() {
        var messages = WebSocketMessages(maxSize: 4)
        #expect(messages.receive(Self.frame(.text, [0xC3, 0x28])) == .violation(.dataInconsistentWithMessage))
        #expect(messages.receive(Self.frame(.continuation, [0x20])) == .violation(.protocolError))
        #expect(messages.receive(Self.frame(.text, Array("12345".utf8))) == .violation(.messageTooLarge))
        #expect(messages.receive(Self.frame(.text, Array("x".utf8), reserved: .rsv1)) == .violation(.protocolError))
        #expect(messages.receive(Self.frame(WebSocketOpcode(encodedWebSocketOpcode: 0x3)!, [])) == .violation(.protocolError))

        var joined = WebSocketMessages(maxSize: 4)
        #expect(joined.receive(Self.frame(.text, Array("123".utf8), fin: false)) == .nothing)
        #expect(joined.receive(Self.frame(.text, Array("4".utf8))) == .violation(.protocolError), "a new message inside one")
        var large = WebSocketMessages(maxSize: 4)
        #expect(large.receive(Self.frame(.text, Array("123".utf8), fin: false)) == .nothing)
        #expect(large.receive(Self.frame(.continuation, Array("45".utf8))) == .violation(.messageTooLarge))
    }

    @Test func closeFrames() {
        var messages = WebSocketMessages(maxSize: 100)
        #expect(messages.receive(Self.frame(.connectionClose, [])) == .close(code: nil))
        #expect(messages.receive(Self.frame(.connectionClose, [0x03, 0xE9] + Array("bye".utf8))) == .close(code: 1001))
        #expect(messages.receive(Self.frame(.connectionClose, [0x03])) == .violation(.protocolError))
        #expect(messages.receive(Self.frame(.connectionClose, [0x03, 0xE8, 0xC3, 0x28])) == .violation(.protocolError))
        #expect(messages.receive(Self.frame(.binary, [0, 1])) == .binary)
        #expect(messages.receive(Self.frame(.pong, [1])) == .nothing)
    }
}
