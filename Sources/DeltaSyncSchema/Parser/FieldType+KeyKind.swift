extension FieldType {
    /// How a key value is stored: ID, String, enums and the string-like AWS scalars compare as
    /// text, so `blogID: String` may reference `id: ID!`.
    var keyKind: String {
        switch self {
        case .scalar(let scalar):
            switch scalar {
            case .int, .awsTimestamp: return "Int"
            case .float: return "Float"
            case .boolean: return "Boolean"
            default: return "String"
            }
        case .enumType: return "String"
        case .nonModel, .model: return graphQLName
        }
    }
}
