/// A seed or snapshot file that cannot be used: the message names the file and the line.
struct FixtureFileFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
