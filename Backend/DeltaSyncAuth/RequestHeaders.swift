/// A request's headers as authentication reads them, from any carrier: HTTP fields, the
/// realtime handshake's `header` object or upgrade headers, a `start`'s
/// `extensions.authorization`. Names are lowercased; a name sent more than once (repeated, or
/// spelled twice with different case) is recorded in ``repeatedNames`` and keeps its first
/// value.
///
/// Every carrier goes through this one reader, so HTTP and realtime agree on what a repeated
/// header means: ``RequestAuthentication`` refuses a request that repeats a credential header
/// (``credentialNames``) instead of picking one of the values.
///
/// ```swift
/// let headers = RequestHeaders([("x-api-key", "da2-wrong"), ("X-Api-Key", "da2-right")])
/// headers["x-api-key"]        // "da2-wrong"
/// headers.repeatedNames       // ["x-api-key"]
/// ```
public struct RequestHeaders: Sendable, Equatable {
    /// Each name's first value, names lowercased.
    public private(set) var values: [String: String] = [:]
    /// The names (lowercased) that came more than once.
    public private(set) var repeatedNames: Set<String> = []

    /// The headers that carry credentials or that SigV4 needs: when one of them is repeated,
    /// which value counts would depend on the reader, so the request is refused.
    public static let credentialNames: Set<String> = [
        "authorization", "x-api-key", "host", "x-amz-date", "x-amz-security-token", "x-amz-content-sha256",
    ]

    /// Fields in the order they came.
    public init(_ fields: some Sequence<(String, String)>) {
        for (name, value) in fields { add(name, value) }
    }

    /// An object's members (a JSON `header` object): two names that differ only by case are a
    /// repeat. Names are read in sorted order so the kept value does not depend on hashing.
    public init(_ dictionary: [String: String]) {
        self.init(dictionary.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// Adds a field; a name already present is marked repeated and keeps its first value.
    public mutating func add(_ name: String, _ value: String) {
        let name = name.lowercased()
        if values[name] == nil {
            values[name] = value
        } else {
            repeatedNames.insert(name)
        }
    }

    /// The first value of `name` (any case).
    public subscript(_ name: String) -> String? { values[name.lowercased()] }

    /// The credential headers (``credentialNames``) sent more than once.
    public var repeatedCredentials: Set<String> { repeatedNames.intersection(Self.credentialNames) }
}
