import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import Foundation

/// Models built by hand (the schema parser is tested on its own).
enum Fixtures {
    static func model(_ name: String, _ fields: [Field], key: PrimaryKey = PrimaryKey(), indexes: [Index] = []) -> ModelSchema {
        ModelSchema(
            name: name, fields: fields, primaryKey: key, indexes: indexes,
            operations: .defaults(typeName: name, plural: name + "s")
        )
    }

    static func field(_ name: String, _ scalar: ScalarType, list: Bool = false) -> Field {
        Field(name: name, type: .scalar(scalar), isList: list)
    }

    /// One field of every kind the store maps, and a relation field (not stored).
    static let everything = model("Everything", [
        Field(name: "id", type: .scalar(.id), isRequired: true),
        field("title", .string),
        field("count", .int),
        field("score", .float),
        field("done", .boolean),
        field("day", .awsDate),
        field("time", .awsTime),
        field("at", .awsDateTime),
        field("stamp", .awsTimestamp),
        field("email", .awsEmail),
        field("meta", .awsJSON),
        field("phone", .awsPhone),
        field("url", .awsURL),
        field("ip", .awsIPAddress),
        Field(name: "status", type: .enumType("Status")),
        field("tags", .string, list: true),
        field("counts", .int, list: true),
        Field(name: "location", type: .nonModel("Location")),
        Field(name: "stops", type: .nonModel("Location"), isList: true),
        field("ownerId", .id),
        Field(
            name: "owner", type: .model("Owner"),
            relation: Relation(kind: .belongsTo, relatedModel: "Owner", localFields: ["ownerId"], relatedFields: ["id"])
        ),
    ])

    /// A composite primary key: partition `sensor`, sort keys `day` then `seq`.
    static let reading = model(
        "Reading",
        [field("sensor", .id), field("day", .awsDate), field("seq", .int), field("value", .float)],
        key: PrimaryKey(partitionField: "sensor", sortKeyFields: ["day", "seq"])
    )

    /// Secondary indexes: `byBlog` (blogId; createdAt) and `byBlogRank` (blogId; rank, title).
    static let post = model(
        "Post",
        [
            Field(name: "id", type: .scalar(.id), isRequired: true),
            field("blogId", .id), field("createdAt", .awsDateTime), field("rank", .int), field("title", .string),
        ],
        indexes: [
            Index(name: "byBlog", partitionField: "blogId", sortKeyFields: ["createdAt"], queryField: "postsByBlog"),
            Index(name: "byBlogRank", partitionField: "blogId", sortKeyFields: ["rank", "title"]),
        ]
    )

    static func schema(_ models: ModelSchema...) -> AmplifySchema { schema(models) }

    static func schema(_ models: [ModelSchema]) -> AmplifySchema {
        AmplifySchema(
            models: models, enums: [EnumType(name: "Status", values: ["ACTIVE", "DONE"])],
            nonModels: [NonModelType(name: "Location", fields: [field("city", .string), field("zip", .int)])]
        )
    }
}

/// A fresh directory, removed when the test ends.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "deltasync-storage-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

extension ItemStore {
    func put(_ model: ModelSchema, _ items: [Item]) async throws {
        try await write { tx in for item in items { try tx.put(model, item) } }
    }

    func get(_ model: ModelSchema, _ key: Item) async throws -> Item? {
        try await read { tx in try tx.get(model, key: key) }
    }

    func page(_ model: ModelSchema, _ query: ItemQuery) async throws -> ItemPage {
        try await read { tx in try tx.query(model, query) }
    }

    /// `count` as `[items, tombstones]`.
    func counts(_ model: ModelSchema) async throws -> [Int] {
        let (items, tombstones) = try await read { tx in try tx.count(model) }
        return [items, tombstones]
    }

    /// Every page of `query`, followed through `lastEvaluated`.
    func pages(_ model: ModelSchema, _ query: ItemQuery) async throws -> [ItemPage] {
        var query = query
        var pages: [ItemPage] = []
        repeat {
            let page = try await self.page(model, query)
            pages.append(page)
            query.after = page.lastEvaluated
        } while query.after != nil && pages.count < 10_000
        return pages
    }
}
