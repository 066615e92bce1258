/// On whose behalf a request runs: an authenticated ``Identity``, or the server itself.
///
/// Every request states one; there is no default. A request from the network carries the
/// identity its credentials established. An embedded call names it too:
///
/// ```swift
/// await server.execute(request, as: .apiKey)          // as a client holding the API key
/// await server.execute(request, as: .identity(alice)) // as a signed-in user
/// await server.execute(request, as: .trusted)         // the fixture API's own writes
/// ```
public enum Principal: Sendable, Hashable {
    /// A caller the API's authorization rules apply to.
    case identity(Identity)
    /// The server acting for its operator (the fixture API seeding data): no rule applies.
    /// Never the outcome of authenticating a request.
    case trusted

    /// A caller holding the API key.
    public static let apiKey = Principal.identity(.apiKey)

    /// The identity, `nil` for ``trusted``.
    public var identity: Identity? {
        if case .identity(let identity) = self { return identity }
        return nil
    }
}
