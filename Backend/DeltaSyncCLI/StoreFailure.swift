/// A store that cannot be opened (the database unreachable, refusing the role, ...).
struct StoreFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
