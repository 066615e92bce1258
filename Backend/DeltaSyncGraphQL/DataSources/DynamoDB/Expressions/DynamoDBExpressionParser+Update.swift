import DeltaSyncCore

extension DynamoDBExpressionParser {
    /// The whole text as an update expression: `SET`, `REMOVE`, `ADD` and `DELETE` clauses in
    /// any order, each at most once.
    mutating func update() throws(DataSourceFailure) -> DynamoDBUpdate {
        var update = DynamoDBUpdate()
        var seen: Set<String> = []
        while !isAtEnd {
            guard case .word(let word)? = peek, ["SET", "REMOVE", "ADD", "DELETE"].contains(word.uppercased()) else { throw unexpected() }
            let clause = word.uppercased()
            guard seen.insert(clause).inserted else {
                throw .validation("Invalid UpdateExpression: The \"\(clause)\" section can only be used once in an update expression;")
            }
            _ = takeWord(clause)
            repeat {
                let path = try path()
                switch clause {
                case "SET":
                    try expect(.symbol("="))
                    update.sets.append((path, try setValue()))
                case "REMOVE":
                    update.removes.append(path)
                case "ADD":
                    update.adds.append((path, try operand()))
                default:
                    update.deletes.append((path, try operand()))
                }
            } while take(.symbol(","))
        }
        return update
    }

    /// The whole text as a projection: paths separated by commas.
    mutating func projection() throws(DataSourceFailure) -> [DynamoDBPath] {
        var paths = [try path()]
        while take(.symbol(",")) { paths.append(try path()) }
        try expectEnd()
        return paths
    }
}
