/// The members models and non-model types share: stored properties, a memberwise initializer,
/// conversion to and from an `Item`, and `Codable` through that item.
enum StoredMembersWriter {
    static func properties(_ properties: [StoredProperty], into source: inout SwiftSource) {
        for property in properties {
            source.line("public \(property.isConstant ? "let" : "var") \(property.identifier): \(property.type)")
        }
    }

    static func memberwiseInitializer(_ properties: [StoredProperty], into source: inout SwiftSource) {
        source.line("public init(")
        for (position, property) in properties.enumerated() {
            let defaultClause = property.defaultExpression.map { " = \($0)" } ?? ""
            let separator = position == properties.count - 1 ? "" : ","
            source.line("    \(property.identifier): \(property.type)\(defaultClause)\(separator)")
        }
        source.block(")") { body in
            for property in properties {
                body.line("self.\(property.identifier) = \(property.identifier)")
            }
        }
    }

    /// `init(item:)`, `item`, and `Codable` going through the item, so a value decodes straight
    /// from AppSync's JSON and ignores what the item does not store (`__typename`, sync metadata,
    /// nested relations).
    static func itemConversion(_ properties: [StoredProperty], typeName: String, names: SwiftNames, into source: inout SwiftSource) {
        let owner = SwiftLiteral.string(typeName)
        let item = names.library("Item")
        source.block("public init(item: \(item)) throws(\(names.library("DataStoreError")))") { body in
            for property in properties {
                body.line("\(property.identifier) = try item.field(\(SwiftLiteral.string(property.name)), of: \(owner))")
            }
        }
        source.line()
        source.block("public var item: \(item)") { body in
            body.line("[")
            for property in properties {
                body.line("    \(SwiftLiteral.string(property.name)): \(property.identifier).json,")
            }
            body.line("]")
        }
        source.line()
        source.block("public init(from decoder: any \(names.library("Decoder"))) throws") { body in
            body.line("try self.init(item: \(item)(from: decoder))")
        }
        source.line()
        source.block("public func encode(to encoder: any \(names.library("Encoder"))) throws") { body in
            body.line("try item.encode(to: encoder)")
        }
    }
}
