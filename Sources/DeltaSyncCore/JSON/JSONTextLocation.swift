/// Where a value sits in JSON text, for error messages about a file a person wrote: "line 12"
/// says more than `Post[3].title` in a 5,000-line seed file.
///
/// ```swift
/// let line = JSONTextLocation.line(of: [.key("Post"), .index(3), .key("title")], in: text)
/// ```
///
/// Only used once something is already wrong, so it walks the text again rather than making
/// the parser record positions on every parse.
package enum JSONTextLocation {
    /// One step of a path into a JSON value.
    package enum Step: Sendable, Equatable, CustomStringConvertible {
        case key(String)
        case index(Int)

        package var description: String {
            switch self {
            case .key(let name): return ".\(name)"
            case .index(let i): return "[\(i)]"
            }
        }
    }

    /// The 1-based line of the value at `path`, or of the deepest part of `path` the text has.
    package static func line(of path: [Step], in text: String) -> Int {
        var text = text
        let offset = text.withUTF8 { bytes in
            var scanner = Scanner(bytes: bytes)
            return scanner.locate(path[...])
        }
        return line(ofByte: offset, in: text)
    }

    /// The 1-based line holding the UTF-8 byte at `offset`.
    package static func line(ofByte offset: Int, in text: String) -> Int {
        1 + text.utf8.prefix(offset).lazy.filter { $0 == UInt8(ascii: "\n") }.count
    }

    /// `Post[3].title` for a path (the first key without a dot).
    package static func describe(_ path: [Step]) -> String {
        var text = path.map(\.description).joined()
        if text.hasPrefix(".") { text.removeFirst() }
        return text
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        /// The offset of the value at `path` from the value at the current position.
        mutating func locate(_ path: ArraySlice<Step>) -> Int {
            skipWhitespace()
            guard let step = path.first, position < bytes.count else { return position }
            let start = position
            switch (step, bytes[position]) {
            case (.key(let wanted), UInt8(ascii: "{")):
                position += 1
                while true {
                    skipWhitespace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return start }
                    let key = string()
                    skipWhitespace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return start }
                    position += 1
                    if key == wanted { return locate(path.dropFirst()) }
                    skipValue()
                    skipWhitespace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ",") else { return start }
                    position += 1
                }
            case (.index(let wanted), UInt8(ascii: "[")):
                position += 1
                var index = 0
                while true {
                    skipWhitespace()
                    if index == wanted { return locate(path.dropFirst()) }
                    guard position < bytes.count, bytes[position] != UInt8(ascii: "]") else { return start }
                    skipValue()
                    skipWhitespace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ",") else { return start }
                    position += 1
                    index += 1
                }
            default:
                return start
            }
        }

        mutating func skipWhitespace() {
            while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
        }

        /// Reads a string at the position (escapes kept as written: keys rarely have them).
        mutating func string() -> String {
            position += 1
            let start = position
            while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
            }
            let end = min(position, bytes.count)
            position += 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }

        /// Moves past one value: strings whole, brackets balanced, scalars to the next delimiter.
        mutating func skipValue() {
            var depth = 0
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\""):
                    _ = string()
                    if depth == 0 { return }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return }
                    depth -= 1
                    if depth == 0 {
                        position += 1
                        return
                    }
                case UInt8(ascii: ","):
                    if depth == 0 { return }
                default:
                    break
                }
                position += 1
            }
        }
    }
}
