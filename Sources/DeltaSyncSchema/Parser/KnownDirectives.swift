/// The directives a schema may use, and where.
///
/// Unknown directive names are errors so typos (`@hasmany`) do not silently drop a relation.
enum KnownDirectives {
    /// Directives that shape a `@model` type, understood by the parser.
    static let modelType: Set<String> = ["model", "key", "auth"]

    /// Directives on fields of a `@model` type, understood by the parser.
    static let modelField: Set<String> = [
        "primaryKey", "index", "default", "hasMany", "hasOne", "belongsTo", "manyToMany", "connection", "auth",
    ]

    /// The relation directives: a field carries at most one.
    static let relation: Set<String> = ["hasMany", "hasOne", "belongsTo", "manyToMany", "connection"]

    /// Directives accepted anywhere without effect on models: AppSync's own (`@aws_*`), and
    /// those of features served elsewhere or not at all (search, functions, SQL mapping).
    /// `@auth` is read on models and their fields (``AuthDirective``) and accepted elsewhere.
    static let ignored: Set<String> = [
        "auth", "aws_api_key", "aws_iam", "aws_oidc", "aws_lambda", "aws_cognito_user_pools", "aws_auth",
        "aws_subscribe", "aws_publish", "searchable", "function", "http", "predictions", "sql",
        "mapsTo", "refersTo", "versioned", "deprecated", "allow_public_data_access_with_api_key",
    ]
}
