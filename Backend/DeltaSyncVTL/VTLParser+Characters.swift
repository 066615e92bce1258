/// The characters under the parser: looking ahead, skipping blanks, words and identifiers,
/// lines, and the positions and errors that name them.
extension VTLParser {
    var current: Character? { index < chars.count ? chars[index] : nil }

    func peek(_ offset: Int) -> Character? {
        index + offset < chars.count ? chars[index + offset] : nil
    }

    mutating func skipBlanks() {
        while let next = current, next.isWhitespace { index += 1 }
    }

    mutating func consume(_ text: String) -> Bool {
        let characters = Array(text)
        guard index + characters.count <= chars.count, Array(chars[index..<(index + characters.count)]) == characters else { return false }
        index += characters.count
        return true
    }

    /// A word operator (`and`, `eq`, ...) not followed by more of a name.
    mutating func consumeWord(_ word: String) -> Bool {
        let characters = Array(word)
        let end = index + characters.count
        guard end <= chars.count, Array(chars[index..<end]) == characters else { return false }
        if end < chars.count, chars[end].isLetter || chars[end].isNumber || chars[end] == "_" { return false }
        index = end
        return true
    }

    mutating func identifier() -> String {
        var name = ""
        while let next = current, next.isLetter || next.isNumber || next == "_" || next == "-" {
            // A hyphen belongs to the name only when a letter follows (`$x-1` is subtraction).
            if next == "-", !(peek(1)?.isLetter ?? false) { break }
            name.append(next)
            index += 1
        }
        return name
    }

    mutating func word() -> String {
        var text = ""
        while let next = current, next.isLetter {
            text.append(next)
            index += 1
        }
        return text
    }

    /// After a directive: blanks to the end of the line are consumed with the line break when
    /// nothing else follows on the line.
    mutating func consumeRestOfLineIfBlank() -> Bool {
        var cursor = index
        while cursor < chars.count, chars[cursor] == " " || chars[cursor] == "\t" || chars[cursor] == "\r" { cursor += 1 }
        guard cursor == chars.count || chars[cursor] == "\n" else { return false }
        index = min(cursor + 1, chars.count)
        return true
    }

    /// Whether only blanks stand between the line's start and `offset`.
    func onlyBlanksBefore(_ offset: Int) -> Bool {
        var cursor = offset - 1
        while cursor >= 0, chars[cursor] == " " || chars[cursor] == "\t" { cursor -= 1 }
        return cursor < 0 || chars[cursor] == "\n"
    }

    static func trimTrailingBlanks(_ text: inout String) {
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
    }

    func position(_ offset: Int) -> VTLPosition {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return VTLPosition(line: low + 1, column: offset - lineStarts[low] + 1)
    }

    func error(_ message: String, at position: VTLPosition) -> VTLError {
        VTLError(template: name, position: position, message: message)
    }
}
