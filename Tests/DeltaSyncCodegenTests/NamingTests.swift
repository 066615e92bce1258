import DeltaSyncCodegen
import DeltaSyncSchema
import Testing

/// Swift keywords, enum case names, defaults and literals in generated code.
struct NamingTests {
    static let keywordSchema = """
        enum Mode {
          DEFAULT
          IN_REVIEW
          camelValue
        }

        type Setting {
          protocol: String
        }

        type Rule @model {
          id: ID!
          protocol: String!
          default: Mode @default(value: "DEFAULT")
          setting: Setting
        }
        """

    @Test func keywordFieldsAreEscapedWhereDeclaredAndUsed() throws {
        let rule = try #require(try Generated.files(Self.keywordSchema)["Rule.swift"])
        #expect(rule.hasLine("public var `protocol`: String"))
        #expect(rule.hasLine("public var `default`: Mode?"))
        #expect(rule.hasLine("`protocol`: String,"))
        #expect(rule.hasLine("`default`: Mode? = .`default`,"))
        #expect(rule.hasLine("self.`protocol` = `protocol`"))
        #expect(rule.hasLine(#"`protocol` = try item.field("protocol", of: "Rule")"#))
        #expect(rule.hasLine(#""protocol": `protocol`.json,"#))
        #expect(rule.hasLine(#"public let `default` = QueryField<Mode>("default")"#))
        let setting = try #require(try Generated.files(Self.keywordSchema)["Setting.swift"])
        #expect(setting.hasLine("public var `protocol`: String?"))
    }

    @Test func enumCasesAreLowerCamelCase() throws {
        let mode = try #require(try Generated.files(Self.keywordSchema)["Mode.swift"])
        #expect(mode.block("public enum Mode: String, ModelEnum {") == [
            #"case `default` = "DEFAULT""#,
            #"case inReview = "IN_REVIEW""#,
            #"case camelValue = "camelValue""#,
        ])
    }

    @Test func defaultsWithALiteralForm() throws {
        let text = #"""
            type Options @model {
              id: ID!
              title: String! @default(value: "Say \"hi\"\\n")
              count: Int @default(value: "3")
              ratio: Float! @default(value: "0.5")
              whole: Float @default(value: "2")
              enabled: Boolean! @default(value: "true")
              day: AWSDate @default(value: "2026-01-01")
              settings: AWSJSON @default(value: "{\"a\":1}")
            }
            """#
        let parameters = try #require(try Generated.files(text)["Options.swift"]).block("public init(")
        #expect(parameters.contains(#"title: String = "Say \"hi\"\\n","#))
        #expect(parameters.contains("count: Int? = 3,"))
        #expect(parameters.contains("ratio: Double = 0.5,"))
        #expect(parameters.contains("whole: Double? = 2.0,"))
        #expect(parameters.contains("enabled: Bool = true,"))
        #expect(parameters.contains(#"day: Temporal.Date? = "2026-01-01","#))
        #expect(parameters.contains("settings: JSONValue? = nil,"))
    }

    @Test func modelWithoutDeclaredIDGetsAGeneratedOne() throws {
        let note = try #require(try Generated.files("type Note @model { text: String }")["Note.swift"])
        #expect(note.hasLine("public let id: String"))
        #expect(note.hasLine("id: String = UUID().uuidString,"))
    }

    @Test func quotesAndHashesInTheSchemaAreEscapedInTheDescription() throws {
        let text = ##"""
            # A comment with "quotes"# and a \# sequence.
            type Note @model { id: ID! text: String @default(value: "\"\"\"#\\") }
            """##
        let registry = try #require(try Generated.files(text)["DeltaSyncModels.swift"])
        #expect(registry.contains(##"defaultValue: .string("\"\"\"#\\")"##))
        #expect(!registry.contains("A comment"), "comments are not part of the description")
    }

    @Test func libraryTypesAreQualifiedOnlyWhenTheSchemaTakesTheirName() throws {
        let files = try Generated.files("""
            type Item @model { id: ID! item: String at: AWSTimestamp }
            type Date @model { id: ID! }
            type Note @model { id: ID! at: AWSTimestamp }
            """)
        let item = try #require(files["Item.swift"])
        #expect(item.hasLine("public init(item: DeltaSyncLocalStore.Item) throws(DataStoreError) {"))
        #expect(item.hasLine("public var item_: String?"), "a field named item yields to Model.item")
        #expect(item.hasLine("public var at: Foundation.Date?"))
        #expect(item.hasLine(#"item_ = try item.field("item", of: "Item")"#))
        let date = try #require(files["Date.swift"])
        #expect(date.hasLine("public static func identifier(id: String) -> TypedModelIdentifier<Date> {"))
        let model = try #require(try Generated.files("type Model @model { id: ID! }\ntype Identifiable @model { id: ID! }")["Model.swift"])
        #expect(model.hasLine("public struct Model: DeltaSyncLocalStore.Model, Equatable, Swift.Identifiable {"))
        let note = try #require(try Generated.files("type Note @model { id: ID! at: AWSTimestamp }")["Note.swift"])
        #expect(note.hasLine("public var at: Date?"), "no clash, no qualification")
        #expect(note.hasLine("public init(item: Item) throws(DataStoreError) {"))
    }

    @Test func enumCasesThatWouldClashKeepTheirSpelling() throws {
        let schema = "enum Stage { IN_REVIEW inReview RAW_VALUE rawValue }\ntype Task @model { id: ID! stage: Stage }"
        let stage = try #require(try Generated.files(schema)["Stage.swift"])
        #expect(stage.block("public enum Stage: String, ModelEnum {") == [
            #"case inReview = "IN_REVIEW""#,
            #"case inReview2 = "inReview""#,
            #"case RAW_VALUE = "RAW_VALUE""#,
            #"case rawValue2 = "rawValue""#,
        ])
    }
}
