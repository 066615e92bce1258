import DeltaSyncCore

/// A document path: `title`, `location.lat`, `tags[0]`, names already read from
/// `expressionNames`.
typealias DynamoDBPath = [DynamoDBPathElement]

enum DynamoDBPathElement: Sendable, Equatable {
    case name(String)
    case index(Int)
}

/// A value in an expression: an attribute at a path, a value from `expressionValues`, or a
/// function of them.
indirect enum DynamoDBOperand: Sendable {
    case path(DynamoDBPath)
    case value(JSONValue)
    case size(DynamoDBPath)
    case ifNotExists(DynamoDBPath, DynamoDBOperand)
    case listAppend(DynamoDBOperand, DynamoDBOperand)
    case plus(DynamoDBOperand, DynamoDBOperand)
    case minus(DynamoDBOperand, DynamoDBOperand)
}

/// A condition, key condition or filter expression.
indirect enum DynamoDBCondition: Sendable {
    enum Comparator: String, Sendable {
        case equal = "=", notEqual = "<>", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    case compare(DynamoDBOperand, Comparator, DynamoDBOperand)
    case between(DynamoDBOperand, DynamoDBOperand, DynamoDBOperand)
    case oneOf(DynamoDBOperand, [DynamoDBOperand])
    case attributeExists(DynamoDBPath)
    case attributeNotExists(DynamoDBPath)
    case attributeType(DynamoDBPath, DynamoDBOperand)
    case beginsWith(DynamoDBOperand, DynamoDBOperand)
    case contains(DynamoDBOperand, DynamoDBOperand)
    case not(DynamoDBCondition)
    case and(DynamoDBCondition, DynamoDBCondition)
    case or(DynamoDBCondition, DynamoDBCondition)
}

/// An update expression's actions, in the order DynamoDB applies them.
struct DynamoDBUpdate: Sendable {
    var sets: [(DynamoDBPath, DynamoDBOperand)] = []
    var removes: [DynamoDBPath] = []
    var adds: [(DynamoDBPath, DynamoDBOperand)] = []
    var deletes: [(DynamoDBPath, DynamoDBOperand)] = []

    /// Every path the update writes, each of which may appear once.
    var paths: [DynamoDBPath] { sets.map(\.0) + removes + adds.map(\.0) + deletes.map(\.0) }
}

/// One token of an expression.
enum DynamoDBToken: Sendable, Equatable {
    case word(String)
    case name(String)
    case value(String)
    case number(Int)
    case symbol(String)

    var text: String {
        switch self {
        case .word(let text), .symbol(let text): return text
        case .name(let text): return "#" + text
        case .value(let text): return ":" + text
        case .number(let number): return String(number)
        }
    }

    /// Splits `text` into tokens.
    static func tokens(_ text: String, kind: String) throws(DataSourceFailure) -> [DynamoDBToken] {
        var tokens: [DynamoDBToken] = []
        let characters = Array(text)
        var index = 0
        func word(from start: Int) -> String {
            var end = start
            while end < characters.count, characters[end].isLetter || characters[end].isNumber || characters[end] == "_" { end += 1 }
            index = end
            return String(characters[start..<end])
        }
        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace {
                index += 1
            } else if character == "#" || character == ":" {
                let name = word(from: index + 1)
                guard !name.isEmpty else { throw syntaxError(kind, String(character), text) }
                tokens.append(character == "#" ? .name(name) : .value(name))
            } else if character.isNumber {
                let digits = word(from: index)
                guard let number = Int(digits) else { throw syntaxError(kind, digits, text) }
                tokens.append(.number(number))
            } else if character.isLetter || character == "_" {
                tokens.append(.word(word(from: index)))
            } else {
                let pair = index + 1 < characters.count ? String(characters[index...index + 1]) : ""
                if ["<>", "<=", ">="].contains(pair) {
                    tokens.append(.symbol(pair))
                    index += 2
                } else if "()[],.=<>+-".contains(character) {
                    tokens.append(.symbol(String(character)))
                    index += 1
                } else {
                    throw syntaxError(kind, String(character), text)
                }
            }
        }
        return tokens
    }

    /// DynamoDB's message for an expression it cannot read.
    static func syntaxError(_ kind: String, _ token: String, _ text: String) -> DataSourceFailure {
        .validation("Invalid \(kind): Syntax error; token: \"\(token)\", near: \"\(text)\"")
    }
}
