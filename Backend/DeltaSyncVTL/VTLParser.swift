/// Reads a template into ``VTLNode``s: text, references, and the directives AppSync's Velocity
/// (1.7 with `#return`) has. A directive alone on its line takes the line with it (its leading
/// whitespace and its line break), so templates can indent directives freely.
///
/// Text and the directives' names are read here; the directives in `+Directives` and
/// `+Blocks`, references in `+References`, expressions in `+Expressions` and `+Literals`, and
/// the characters and positions under them in `+Characters`.
struct VTLParser {
    let chars: [Character]
    let name: String
    var index = 0
    var lineStarts: [Int] = [0]
    /// The template's `#macro`s by name, collected while parsing: a call may come before the
    /// definition, as Velocity 1.7 resolves calls when it renders.
    var macros: [String: VTLMacro] = [:]
    /// The variables the template names, each with its slot.
    var symbols = VTLSymbols()
    /// How many references name `$foreach` or `$velocityCount` so far: a loop whose body has
    /// none need not bind them (unless a macro or block could read them, ``VTLCompiler``).
    var loopScopeReads = 0
    /// Whether the template has a `#define`: renderings look for blocks only then.
    var definesBlocks = false
    static let directives: Set<String> = [
        "set", "if", "elseif", "else", "end", "foreach", "break", "return", "stop", "define", "macro", "noescape",
    ]
    /// Directives with a body up to `#end`: their header's line is taken before the body is read.
    static let blockDirectives: Set<String> = ["if", "foreach", "define", "macro", "noescape"]

    init(_ text: String, name: String) {
        chars = Array(text)
        self.name = name
        for (offset, character) in chars.enumerated() where character == "\n" { lineStarts.append(offset + 1) }
    }

    mutating func parse() throws(VTLError) -> [VTLNode] {
        let (nodes, end) = try nodes(until: [])
        if let end { throw error("#\(end.name) without a matching #if, #foreach, #define or #macro", at: end.position) }
        return nodes
    }

    // MARK: - Text and directives

    struct Terminator {
        var name: String
        var position: VTLPosition
        /// `#elseif`'s condition, read where the directive is.
        var condition: VTLExpression?
    }

    /// Nodes up to the end of the template, or up to one of `terminators` (`end`, `else`,
    /// `elseif`), which is consumed and returned.
    mutating func nodes(until terminators: Set<String>) throws(VTLError) -> ([VTLNode], Terminator?) {
        var nodes: [VTLNode] = []
        var text = ""
        func flush() {
            if !text.isEmpty { nodes.append(.text(text)) }
            text = ""
        }
        while index < chars.count {
            let character = chars[index]
            if character == "#" {
                if try skipCommentOrRawText(into: &text) { continue }
                let start = index
                guard let directive = directiveName() else {
                    if let call = macroCall() {
                        if onlyBlanksBefore(start), consumeRestOfLineIfBlank() { Self.trimTrailingBlanks(&text) }
                        flush()
                        nodes.append(call)
                        continue
                    }
                    text.append(character)
                    index += 1
                    continue
                }
                let position = position(start)
                let aloneBefore = onlyBlanksBefore(start)
                switch directive {
                case "end", "else", "elseif":
                    guard terminators.contains(directive) else {
                        throw error("#\(directive) without a matching #if\(directive == "end" ? " or #foreach" : "")", at: position)
                    }
                    let condition = directive == "elseif" ? try parenthesized("elseif") : nil
                    if aloneBefore, consumeRestOfLineIfBlank() { Self.trimTrailingBlanks(&text) }
                    flush()
                    return (nodes, Terminator(name: directive, position: position, condition: condition))
                default:
                    let (node, tookLine) = try self.directive(directive, at: position, aloneOnLine: aloneBefore)
                    if tookLine { Self.trimTrailingBlanks(&text) }
                    flush()
                    nodes.append(node)
                }
                continue
            }
            if character == "$", let reference = try textReference() {
                flush()
                nodes.append(reference)
                continue
            }
            text.append(character)
            index += 1
        }
        flush()
        if let missing = terminators.first(where: { $0 == "end" }) {
            throw error("#\(missing) missing: a directive opened here is never closed", at: position(chars.count))
        }
        return (nodes, nil)
    }

    /// `##` and `#* *#` comments, skipped, and `#[[raw]]#` text, added to `text` as it is;
    /// whether one was there.
    private mutating func skipCommentOrRawText(into text: inout String) throws(VTLError) -> Bool {
        if peek(1) == "#" {
            // `##` comment: to the end of the line, the line break included.
            while index < chars.count, chars[index] != "\n" { index += 1 }
            if index < chars.count { index += 1 }
            return true
        }
        if peek(1) == "*" {
            let start = position(index)
            index += 2
            while index < chars.count, !(chars[index] == "*" && peek(1) == "#") { index += 1 }
            guard index < chars.count else { throw error("#* comment without its closing *#", at: start) }
            index += 2
            return true
        }
        if peek(1) == "[", peek(2) == "[" {
            index += 3
            while index < chars.count, !(chars[index] == "]" && peek(1) == "]" && peek(2) == "#") {
                text.append(chars[index])
                index += 1
            }
            index += 3
            return true
        }
        return false
    }

    /// `#name` or `#{name}` of a known directive, consumed; `nil` (nothing consumed) otherwise.
    private mutating func directiveName() -> String? {
        var cursor = index + 1
        let formal = cursor < chars.count && chars[cursor] == "{"
        if formal { cursor += 1 }
        var name = ""
        while cursor < chars.count, chars[cursor].isLetter {
            name.append(chars[cursor])
            cursor += 1
        }
        guard Self.directives.contains(name) else { return nil }
        if formal {
            guard cursor < chars.count, chars[cursor] == "}" else { return nil }
            cursor += 1
        }
        index = cursor
        return name
    }

    /// A directive after its name; `tookLine` when it stood alone on its line and took the line
    /// (a block directive takes its header's line before its body is read).
}
