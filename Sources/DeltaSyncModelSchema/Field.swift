import DeltaSyncCore

/// A field of a model or non-model type.
public struct Field: Sendable, Equatable {
    public var name: String
    public var type: FieldType
    /// `[T]` rather than `T`.
    public var isList: Bool
    /// `T!` (or `[T]!` for lists).
    public var isRequired: Bool
    /// `[T!]`: list elements are non-null.
    public var isListElementRequired: Bool
    /// `@default(value:)`, already converted to the field's type.
    public var defaultValue: JSONValue?
    /// Set on relation fields; such fields are resolved, not stored.
    public var relation: Relation?
    /// `true` for fields Amplify adds (implicit foreign keys, timestamps, join model keys).
    public var isGenerated: Bool
    /// Field-level `@auth` rules, which replace the model's for this field; `nil` when none.
    public var authRules: [AuthRule]?
    /// AppSync mode directives written on the field (`@aws_iam`); `nil` when none.
    public var modeDirectives: [AuthMode]?

    public init(
        name: String,
        type: FieldType,
        isList: Bool = false,
        isRequired: Bool = false,
        isListElementRequired: Bool = false,
        defaultValue: JSONValue? = nil,
        relation: Relation? = nil,
        isGenerated: Bool = false,
        authRules: [AuthRule]? = nil,
        modeDirectives: [AuthMode]? = nil
    ) {
        self.name = name
        self.type = type
        self.isList = isList
        self.isRequired = isRequired
        self.isListElementRequired = isListElementRequired
        self.defaultValue = defaultValue
        self.relation = relation
        self.isGenerated = isGenerated
        self.authRules = authRules
        self.modeDirectives = modeDirectives
    }
}

/// What a field holds.
public enum FieldType: Sendable, Equatable {
    case scalar(ScalarType)
    case enumType(String)
    case nonModel(String)
    case model(String)

    /// The GraphQL name of the named type (`String`, `AWSDateTime`, `Status`, `Post`).
    public var graphQLName: String {
        switch self {
        case .scalar(let s): return s.rawValue
        case .enumType(let n), .nonModel(let n), .model(let n): return n
        }
    }
}

/// GraphQL's built-in scalars and AppSync's AWS scalars.
public enum ScalarType: String, Sendable, CaseIterable {
    case id = "ID"
    case string = "String"
    case int = "Int"
    case float = "Float"
    case boolean = "Boolean"
    case awsDate = "AWSDate"
    case awsTime = "AWSTime"
    case awsDateTime = "AWSDateTime"
    case awsTimestamp = "AWSTimestamp"
    case awsEmail = "AWSEmail"
    case awsJSON = "AWSJSON"
    case awsPhone = "AWSPhone"
    case awsURL = "AWSURL"
    case awsIPAddress = "AWSIPAddress"

    /// `true` for the AWS scalars, which the AppSync schema declares itself.
    public var isAWSScalar: Bool { rawValue.hasPrefix("AWS") }

    /// The family used to pick filter inputs: `ModelStringInput`, `ModelIntInput`, ...
    public var filterFamily: String {
        switch self {
        case .id: return "ID"
        case .int, .awsTimestamp: return "Int"
        case .float: return "Float"
        case .boolean: return "Boolean"
        default: return "String"
        }
    }
}
