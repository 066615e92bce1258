/// The naming rules of Amplify's transformer, gathered so the parser (operation names, implicit
/// foreign keys) and the printer (type and input names) agree.
enum Naming {
    /// English plural of a type name, as in `listPosts` / `syncCategories`.
    ///
    /// Simple suffix rules rather than a dictionary: `Category` → `Categories`, `Status` →
    /// `Statuses`, `Box` → `Boxes`, `Key` → `Keys`, otherwise `s`.
    static func plural(_ name: String) -> String {
        let lower = name.lowercased()
        if lower.hasSuffix("y"), let beforeY = lower.dropLast().last, !"aeiou".contains(beforeY) {
            return String(name.dropLast()) + "ies"
        }
        for suffix in ["s", "x", "z", "ch", "sh"] where lower.hasSuffix(suffix) {
            return name + "es"
        }
        return name + "s"
    }

    /// Words joined in camel case: `["Blog", "posts", "id"]` → `blogPostsId`.
    static func camelCase(_ words: [String]) -> String {
        var result = ""
        for (position, word) in words.enumerated() where !word.isEmpty {
            result += position == 0 ? lowerFirst(word) : upperFirst(word)
        }
        return result
    }

    /// The argument of a composite sort key: its fields joined, `["rating", "title"]` →
    /// `ratingTitle`.
    static func sortKeyArgumentName(_ fields: [String]) -> String {
        guard let first = fields.first else { return "" }
        return first + fields.dropFirst().map(upperFirst).joined()
    }

    static func lowerFirst(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.lowercased() + word.dropFirst()
    }

    static func upperFirst(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }

    /// A name made usable inside a GraphQL type name: characters outside `[A-Za-z0-9]` are dropped
    /// and the letter after each one is capitalised (`gsi-Blog.posts` → `GsiBlogPosts`).
    static func pascalIdentifier(_ name: String) -> String {
        var result = ""
        var capitalizeNext = true
        for character in name {
            guard character.isASCII, character.isLetter || character.isNumber else {
                capitalizeNext = true
                continue
            }
            result += capitalizeNext ? character.uppercased() : String(character)
            capitalizeNext = false
        }
        return result
    }

    /// The implicit index Amplify adds on a child for a `@hasMany` without `fields`.
    static func implicitIndexName(parent: String, field: String) -> String { "gsi-\(parent).\(field)" }
}

// MARK: - Generated type names

extension ModelSchema {
    /// `ModelPostConnection`: the page type of list, sync and index queries.
    public var connectionTypeName: String { "Model\(name)Connection" }
    /// `ModelPostFilterInput`: the `filter` argument of list, sync and index queries.
    public var filterInputTypeName: String { "Model\(name)FilterInput" }
    /// `ModelPostConditionInput`: the `condition` argument of mutations.
    public var conditionInputTypeName: String { "Model\(name)ConditionInput" }
    /// `CreatePostInput`, the `input` of the create mutation.
    public var createInputTypeName: String { "Create\(name)Input" }
    /// `UpdatePostInput`, the `input` of the update mutation.
    public var updateInputTypeName: String { "Update\(name)Input" }
    /// `DeletePostInput`, the `input` of the delete mutation.
    public var deleteInputTypeName: String { "Delete\(name)Input" }
    /// `ModelSubscriptionPostFilterInput`: the `filter` argument of subscriptions.
    public var subscriptionFilterInputTypeName: String { "ModelSubscription\(name)FilterInput" }
}

extension NonModelType {
    /// `LocationInput`: how mutation inputs accept a non-model value.
    public var inputTypeName: String { "\(name)Input" }
}
