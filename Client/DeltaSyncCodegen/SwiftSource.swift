/// Swift source text built line by line, indented four spaces per nesting level.
struct SwiftSource {
    private(set) var lines: [String] = []
    private var depth = 0

    /// Appends a line at the current depth; an empty line stays empty, with no trailing spaces.
    mutating func line(_ text: String = "") {
        lines.append(text.isEmpty ? "" : String(repeating: "    ", count: depth) + text)
    }

    /// Appends `opening {`, the lines `body` writes one level deeper, and `}`.
    mutating func block(_ opening: String, _ body: (inout SwiftSource) -> Void) {
        line(opening + " {")
        depth += 1
        body(&self)
        depth -= 1
        line("}")
    }

    /// The lines joined, ending with a newline.
    var text: String { lines.map { $0 + "\n" }.joined() }
}
