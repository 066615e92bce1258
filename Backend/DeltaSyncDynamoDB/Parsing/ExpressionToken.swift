/// One token of an expression and where it is in the text, for DynamoDB's `near: "..."`.
struct ExpressionToken: Sendable {
    enum Kind: Sendable, Equatable {
        /// An attribute name, keyword or function name.
        case word(String)
        /// `#name`, with its `#`.
        case name(String)
        /// `:value`, with its `:`.
        case value(String)
        /// A list index.
        case number(Int)
        /// `( ) [ ] , . = <> < <= > >= + -`
        case symbol(String)
        /// A character no token starts with; the parser reports it.
        case invalid(String)
        case end
    }

    var kind: Kind
    var range: Range<String.Index>

    /// The token as DynamoDB quotes it in a syntax error.
    func text(in source: String) -> String {
        kind == .end ? "<EOF>" : String(source[range])
    }

    /// A keyword (`AND`, `SET`, ...) in any case.
    func isKeyword(_ keyword: String) -> Bool {
        guard case .word(let word) = kind else { return false }
        return word.uppercased() == keyword
    }

    /// Splits `text` into tokens, ending with ``Kind/end``. Never fails: a character that
    /// starts no token becomes ``Kind/invalid(_:)`` for the parser to report in place.
    static func tokens(of text: String) -> [ExpressionToken] {
        var tokens: [ExpressionToken] = []
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_"
        }
        func run(from start: String.Index, while accept: (Unicode.Scalar) -> Bool) -> String.Index {
            var end = start
            while end < scalars.endIndex, accept(scalars[end]) { end = scalars.index(after: end) }
            return end
        }
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            if scalar.properties.isWhitespace {
                index = next
                continue
            }
            let kind: Kind
            var end = next
            if scalar == "#" || scalar == ":" {
                end = run(from: next, while: isWordScalar)
                let word = String(text[index..<end])
                kind = end == next ? .invalid(word) : (scalar == "#" ? .name(word) : .value(word))
            } else if ("0"..."9").contains(scalar) {
                end = run(from: next) { ("0"..."9").contains($0) }
                let digits = String(text[index..<end])
                kind = Int(digits).map(Kind.number) ?? .invalid(digits)
            } else if scalar.properties.isAlphabetic || scalar == "_" {
                end = run(from: next, while: isWordScalar)
                kind = .word(String(text[index..<end]))
            } else {
                let pair = next < scalars.endIndex ? String(scalar) + String(scalars[next]) : ""
                if ["<>", "<=", ">="].contains(pair) {
                    end = scalars.index(after: next)
                    kind = .symbol(pair)
                } else if "()[],.=<>+-".unicodeScalars.contains(scalar) {
                    kind = .symbol(String(scalar))
                } else {
                    kind = .invalid(String(scalar))
                }
            }
            tokens.append(ExpressionToken(kind: kind, range: index..<end))
            index = end
        }
        // The end sits right after the last token, so `near` leaves trailing whitespace out.
        let end = tokens.last?.range.upperBound ?? text.endIndex
        tokens.append(ExpressionToken(kind: .end, range: end..<end))
        return tokens
    }
}
