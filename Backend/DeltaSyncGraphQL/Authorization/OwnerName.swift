import DeltaSyncCore

/// How an owner field of a `sub::username` rule is shown: Amplify stores `<sub>::<username>`
/// and its field resolver returns the part after the last `::` (the username), element-wise
/// for owner lists. Values without `::` (items written before the composite claim) are shown
/// as stored.
enum OwnerName {
    static func shown(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let stored):
            guard let range = stored.range(of: "::", options: .backwards) else { return value }
            return .string(String(stored[range.upperBound...]))
        case .array(let list):
            return .array(list.map(shown))
        default:
            return value
        }
    }
}
