/// AppSync's checks of APPSYNC_JS code when it is saved, those cheap to make over tokens: an ES
/// module (not CommonJS) exporting `request` and `response`, importing only the modules the
/// runtime provides, within AppSync's size limit, and without the features AppSync's runtime
/// does not run (`try`/`catch`/`throw`, `while` and `do` loops, C-style `for`, `continue`,
/// `++`/`--`/`~`, the `in` operator, regular expression literals, `async`/`await`), and those
/// ``JSCodeRestrictions`` reads (classes, labels, `apply`/`bind`/`call`, a function calling itself).
///
/// What it leaves to AppSync's own checker: functions calling each other in a cycle, functions
/// passed as arguments other than callbacks, and the lists of supported built-in methods. Node
/// runs those as JavaScript; see docs/compatibility.md.
enum JSCodeCheck {
    /// AppSync's limit on a resolver's or function's code.
    static let maxCharacters = 32_768
    /// The modules AppSync's runtime resolves and DeltaSync provides.
    static let modules: Set<String> = ["@aws-appsync/utils", "@aws-appsync/utils/dynamodb"]

    private typealias Token = JSScanner.Token

    /// The names the code exports.
    ///
    /// - Throws: ``JSCodeError`` at the first problem, in the order of the text.
    static func exports(of text: String, name: String) throws(JSCodeError) -> Set<String> {
        guard text.count <= maxCharacters else {
            throw JSCodeError(file: name, message: "AppSync takes at most \(maxCharacters) characters of code; this file holds \(text.count). Move work into a Lambda data source or a pipeline of functions.")
        }
        let tokens: [Token]
        do {
            tokens = try JSScanner(text).tokens
        } catch {
            throw JSCodeError(file: name, line: error.line, column: error.column, message: error.message)
        }
        func fail(_ token: Token, _ message: String) -> JSCodeError {
            JSCodeError(file: name, line: token.line, column: token.column, message: message)
        }
        var exports: Set<String> = []
        var depth = (parens: 0, braces: 0)
        // The depth inside each `for (` header still open: a `;` there makes a C-style loop.
        var forHeaders: [(parens: Int, braces: Int)] = []
        for (index, token) in tokens.enumerated() {
            let previous = index > 0 ? tokens[index - 1] : nil
            let next = index + 1 < tokens.count ? tokens[index + 1] : nil
            switch token.kind {
            case .regularExpression:
                throw fail(token, "regular expression literals do not run on AppSync's runtime: string methods such as replace and split take the pattern as a string (\(token.text))")
            case .punctuator:
                switch token.text {
                case "(":
                    depth.parens += 1
                case ")":
                    if let header = forHeaders.last, header == depth { forHeaders.removeLast() }
                    depth.parens -= 1
                case "{":
                    depth.braces += 1
                case "}":
                    depth.braces -= 1
                case ";" where forHeaders.last.map { $0 == depth } == true:
                    throw fail(token, "C-style for loops (for (;;)) do not run on AppSync's runtime: use for-of or for-in, or an array method")
                case "++", "--":
                    throw fail(token, "\(token.text) does not run on AppSync's runtime: write x += 1 or x -= 1")
                case "~":
                    throw fail(token, "the ~ operator does not run on AppSync's runtime")
                default:
                    break
                }
            case .identifier:
                // A property name (`a.in`, `{ try: 1 }`) is no keyword.
                if let previous, previous.kind == .punctuator, [".", "?."].contains(previous.text) { continue }
                if next?.kind == .punctuator, next?.text == ":", let previous, previous.kind == .punctuator, ["{", ","].contains(previous.text) { continue }
                let afterNext = index + 2 < tokens.count ? tokens[index + 2] : nil
                if let message = unsupported(token.text, next: next, afterNext: afterNext) { throw fail(token, message) }
                switch token.text {
                case "for" where next?.text == "(":
                    forHeaders.append((depth.parens + 1, depth.braces))
                case "in" where forHeaders.last.map { $0 == depth } != true:
                    throw fail(token, "the in operator does not run on AppSync's runtime: use Object.hasOwn(object, key) or object[key] !== undefined")
                case "import":
                    if next?.text == "." { continue }  // import.meta
                    if next?.text == "(" {
                        throw fail(token, "import() loads code while the handler runs, which AppSync's runtime does not: import at the top of the file, or bundle the code into it")
                    }
                    try checkImport(tokens, from: index, fail: fail)
                case "export":
                    exports.formUnion(try exported(tokens, from: index, fail: fail))
                default:
                    break
                }
            case .string, .template, .number:
                break
            }
        }
        if let violation = JSCodeRestrictions.firstViolation(in: tokens) { throw fail(violation.token, violation.message) }
        return exports
    }

    /// Why a word AppSync's runtime does not run cannot be used, or `nil`.
    private static func unsupported(_ word: String, next: Token?, afterNext: Token?) -> String? {
        switch word {
        case "try", "catch", "finally", "throw":
            return "\(word) statements do not run on AppSync's runtime: end the handler with util.error(message, type) instead of throwing"
        case "while", "do":
            return "\(word) loops do not run on AppSync's runtime: use for-of or for-in over a list, or an array method"
        case "continue":
            return "continue does not run on AppSync's runtime: skip with an if inside the loop"
        case "await":
            return "await does not run on AppSync's runtime: handlers are synchronous; data sources are called between request and response"
        case "async" where next?.kind == .identifier || next?.text == "(":
            return "async functions do not run on AppSync's runtime: handlers are synchronous"
        case "require" where next?.text == "(":
            return "require() is CommonJS: AppSync runs an ES module; import from '@aws-appsync/utils' and bundle other code into the file"
        case "module" where next?.text == "." && afterNext?.text == "exports", "exports" where next?.text == ".":
            return "module.exports is CommonJS: AppSync runs an ES module that exports request and response (export function request(ctx) { ... })"
        default:
            return nil
        }
    }

    /// The module an `import` statement names, which must be one AppSync provides.
    private static func checkImport(_ tokens: [Token], from index: Int, fail: (Token, String) -> JSCodeError) throws(JSCodeError) {
        var position = index + 1
        // `import 'x'`, or `import ... from 'x'`: the first string after `from` at this level.
        if position < tokens.count, tokens[position].kind != .string {
            while position < tokens.count, !(tokens[position].kind == .identifier && tokens[position].text == "from") { position += 1 }
            position += 1
        }
        guard position < tokens.count, tokens[position].kind == .string else {
            throw fail(tokens[index], "an import names its module as a string: import { util } from '@aws-appsync/utils'")
        }
        try checkModule(tokens[position], fail: fail)
    }

    private static func checkModule(_ token: Token, fail: (Token, String) -> JSCodeError) throws(JSCodeError) {
        guard !modules.contains(token.text) else { return }
        if token.text == "@aws-appsync/utils/rds" {
            throw fail(token, "@aws-appsync/utils/rds is not provided: DeltaSync runs no RDS data source")
        }
        throw fail(token, "'\(token.text)' is not a module AppSync's runtime provides (\(modules.sorted().joined(separator: ", "))): bundle it into the file, as AppSync requires (esbuild --bundle --format=esm --external:@aws-appsync/utils)")
    }

    /// The names an `export` statement exports; the module it re-exports from is checked.
    private static func exported(_ tokens: [Token], from index: Int, fail: (Token, String) -> JSCodeError) throws(JSCodeError) -> Set<String> {
        func token(_ offset: Int) -> Token? { index + offset < tokens.count ? tokens[index + offset] : nil }
        guard let first = token(1) else { return [] }
        switch first.text {
        case "default":
            return ["default"]
        case "function":
            let name = token(2)?.text == "*" ? token(3) : token(2)
            return name.map { [$0.text] } ?? []
        case "const", "let", "var", "class":
            guard let name = token(2), name.kind == .identifier else { return [] }
            return [name.text]
        case "{", "*":
            var names: Set<String> = []
            var position = index + 1
            if first.text == "{" {
                position += 1
                while position < tokens.count, tokens[position].text != "}" {
                    if tokens[position].kind == .identifier, tokens[position].text != "as" {
                        // `a as b` exports b: the last name before the next comma.
                        var name = tokens[position].text
                        if position + 2 < tokens.count, tokens[position + 1].text == "as" {
                            name = tokens[position + 2].text
                            position += 2
                        }
                        names.insert(name)
                    }
                    position += 1
                }
            }
            position += 1
            if position < tokens.count, tokens[position].text == "from", position + 1 < tokens.count {
                try checkModule(tokens[position + 1], fail: fail)
            }
            return names
        default:
            return []
        }
    }
}
