import DeltaSyncGraphQL

/// What a file name in an Amplify API's `resolvers/` folder says it is, by Amplify's naming:
/// `Type.field.slot.N.req.vtl` is a slot function's template, `Type.field.req.vtl` a whole
/// resolver's, anything else not a resolver file by name (a custom stack may still use it).
enum ResolverFileName: Equatable {
    /// `request` or `response`.
    enum Half: String { case request = "req", response = "res" }

    case slot(type: String, field: String, slot: String, position: Int, half: Half)
    case template(type: String, field: String, half: Half)
    case other

    init(_ name: String) {
        var parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 4, parts.last == "vtl", let half = Half(rawValue: parts[parts.count - 2]) else {
            self = .other
            return
        }
        parts.removeLast(2)
        guard parts.allSatisfy({ !$0.isEmpty }) else {
            self = .other
            return
        }
        switch parts.count {
        case 2:
            self = .template(type: parts[0], field: parts[1], half: half)
        case 4:
            guard let position = Int(parts[3]), position >= 1 else {
                self = .other
                return
            }
            self = .slot(type: parts[0], field: parts[1], slot: parts[2], position: position, half: half)
        default:
            self = .other
        }
    }
}
