/// The APPSYNC_JS restrictions Node would run past, read over whole token sequences rather than
/// one word at a time: classes, labelled statements, `apply`/`bind`/`call`, the `Function`
/// constructor, and a function that calls itself (AppSync's runtime refuses recursion).
///
/// Recursion is found where a function names itself inside its own body: `function f() { f() }`
/// and `const f = (x) => f(x)`. Functions that call each other in a cycle are left to AppSync's
/// checker, as they need a call graph.
enum JSCodeRestrictions {
    typealias Token = JSScanner.Token

    /// The first restricted construct, as the token it starts at and why.
    static func firstViolation(in tokens: [Token]) -> (token: Token, message: String)? {
        for (index, token) in tokens.enumerated() where token.kind == .identifier {
            let previous = index > 0 ? tokens[index - 1] : nil
            let next = index + 1 < tokens.count ? tokens[index + 1] : nil
            if previous?.kind == .punctuator, previous?.text == "." || previous?.text == "?." {
                if ["apply", "bind", "call"].contains(token.text), next?.text == "(" {
                    return (token, "\(token.text)() does not run on AppSync's runtime: call the function directly with its arguments")
                }
                continue
            }
            if next?.text == ":", isStatementStart(previous), index + 2 < tokens.count,
                ["for", "while", "do"].contains(tokens[index + 2].text) {
                return (token, "labelled statements do not run on AppSync's runtime: use a flag or return early")
            }
            // An object key (`{ class: 1 }`) is no keyword.
            if next?.text == ":", previous.map({ ["{", ","].contains($0.text) }) == true { continue }
            switch token.text {
            case "class":
                return (token, "classes do not run on AppSync's runtime: use plain objects and functions")
            case "Function" where next?.text == "(":
                return (token, "the Function constructor does not run on AppSync's runtime: write the function in the code")
            default:
                break
            }
            if let call = selfCall(tokens, at: index) {
                return (call, "recursion does not run on AppSync's runtime: \(token.text) calls itself; loop with for-of over a list instead")
            }
        }
        return nil
    }

    /// Whether a token (or the start of the text) ends a statement, so that what follows starts one.
    private static func isStatementStart(_ previous: Token?) -> Bool {
        guard let previous else { return true }
        return previous.kind == .punctuator && [";", "{", "}"].contains(previous.text)
    }

    /// Where the function named at `index` (`function name(`, `const name = (...) =>`,
    /// `const name = function`) calls itself in its body, or `nil`.
    private static func selfCall(_ tokens: [Token], at index: Int) -> Token? {
        let name = tokens[index].text
        let previous = index > 0 ? tokens[index - 1].text : ""
        var position = index + 1
        if previous == "function" {
            // `function name(...)`: the body is the block after the parameters.
        } else if ["const", "let", "var"].contains(previous), position < tokens.count, tokens[position].text == "=" {
            position += 1
            guard position < tokens.count, tokens[position].text == "function" || tokens[position].text == "(" || isArrowParameter(tokens, position) else { return nil }
        } else {
            return nil
        }
        guard let body = bodyRange(tokens, from: position) else { return nil }
        for inner in body where tokens[inner].kind == .identifier && tokens[inner].text == name {
            let before = tokens[inner - 1].text
            if inner + 1 < tokens.count, tokens[inner + 1].text == "(", before != ".", before != "?.", before != "function" { return tokens[inner] }
        }
        return nil
    }

    /// `x => ...`: a single parameter without parentheses.
    private static func isArrowParameter(_ tokens: [Token], _ position: Int) -> Bool {
        position + 1 < tokens.count && tokens[position].kind == .identifier && tokens[position + 1].text == "=>"
    }

    /// The tokens of a function's body, from the parameters at `start`: the block after the
    /// parameter list, or an arrow's expression up to the `;`, `,` or closing bracket that ends it.
    private static func bodyRange(_ tokens: [Token], from start: Int) -> Range<Int>? {
        var position = start
        if tokens[position].text == "function" { position += 1 }
        if position < tokens.count, tokens[position].kind == .identifier, tokens[position].text != "=>" { position += 1 }
        if position < tokens.count, tokens[position].text == "(" {
            guard let close = matching(tokens, from: position) else { return nil }
            position = close + 1
        }
        if position < tokens.count, tokens[position].text == "=>" { position += 1 }
        guard position < tokens.count else { return nil }
        if tokens[position].text == "{" {
            guard let close = matching(tokens, from: position) else { return nil }
            return position + 1..<close
        }
        var depth = 0
        var end = position
        while end < tokens.count {
            let text = tokens[end].text
            if tokens[end].kind == .punctuator {
                if ["(", "[", "{"].contains(text) { depth += 1 }
                if [")", "]", "}"].contains(text) { depth -= 1 }
                if depth < 0 || (depth == 0 && (text == ";" || text == ",")) { break }
            }
            end += 1
        }
        return position..<end
    }

    /// The index of the bracket closing the one at `open`.
    private static func matching(_ tokens: [Token], from open: Int) -> Int? {
        var depth = 0
        for index in open..<tokens.count where tokens[index].kind == .punctuator {
            switch tokens[index].text {
            case "(", "[", "{": depth += 1
            case ")", "]", "}":
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
        }
        return nil
    }
}
