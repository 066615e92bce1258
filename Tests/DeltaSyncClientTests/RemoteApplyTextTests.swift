import DeltaSyncClient
import DeltaSyncCore
import DeltaSyncLocalStore
import DeltaSyncTestSupport
import GRDB
import Testing

/// A sync page is stored from the text the server sent (members bound where they lie in it)
/// unless it needs the records as items. Both ways must store the same rows and count the same:
/// each case applies one answer both ways, to two stores, and compares every column of every
/// row, tombstones included.
@Suite("Storing a sync page from its text")
struct RemoteApplyTextTests {
    /// The stores the two ways write to: `items` parses the answer and applies its records.
    let items: DataStore
    let text: DataStore

    init() throws {
        items = try DataStore(models: DeltaSyncModels.self)
        text = try DataStore(models: DeltaSyncModels.self)
    }

    /// Applies `answer` both ways and checks they agree; returns whether the page was stored
    /// from its text.
    @discardableResult
    func applyBothWays(_ answer: String, model: String = "Post", sourceLocation: SourceLocation = #_sourceLocation) async throws -> Bool {
        let parsed = try JSONValue(parsing: answer)["data"]["sync\(model)s"]["items"].arrayValue ?? []
        let fromItems = await Self.outcome { () async throws(DataStoreError) in try await items.applyRemote(model, records: parsed.compactMap(\.objectValue)) }
        let fromText = await Self.outcome { () async throws(DataStoreError) in try await text.applyRemote(model, syncAnswer: answer) }
        switch (fromItems, fromText) {
        case (.success(let expected), .success(let (counts, _))):
            #expect(counts == expected, sourceLocation: sourceLocation)
        case (.failure(let expected), .failure(let error)):
            #expect("\(error)" == "\(expected)", sourceLocation: sourceLocation)
        default:
            Issue.record("one way failed, the other did not: \(fromItems) against \(fromText)", sourceLocation: sourceLocation)
        }
        #expect(try await rows(items, model) == rows(text, model), sourceLocation: sourceLocation)
        return (try? fromText.get().fromText) ?? false
    }

    static func outcome<T>(_ body: () async throws(DataStoreError) -> T) async -> Result<T, DataStoreError> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    /// Every column of every row of `model`, tombstones included, in key order.
    func rows(_ store: DataStore, _ model: String = "Post") async throws -> [[DatabaseValue]] {
        let table = try store.store.table(model)
        let order = table.primaryKey.map { table.columns[$0].quoted }.joined(separator: ", ")
        return try await store.store.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedName) ORDER BY \(order)").map { Array($0.databaseValues) }
        }
    }

    static func answer(_ items: [String], model: String = "Post", spaced: Bool = false) -> String {
        let gap = spaced ? "\n  " : ""
        return #"{"data":{"sync\#(model)s":{"items":[\#(gap)"# + items.joined(separator: ",\(gap)") + #"],"nextToken":null,"startedAt":1700000000000}}}"#
    }

    /// A Post record written as a server might: members in any order, escapes, numbers written
    /// as floats, nulls and missing fields, a member the model lacks, a name given twice.
    static func randomPost(id: String, using random: inout SeededRandom) -> String {
        func pick(_ choices: [String]) -> String { choices.randomElement(using: &random)! }
        var members = [
            (#""id""#, #""\#(id)""#),
            (#""blogID""#, pick([#""b1""#, #""b\u0032""#, #""blög""#])),
            (#""title""#, pick([#""Plain title""#, #""Quoted \"title\"""#, #""Line\nbreak""#, #""Ünïcödé 🎉""#, #""\u00e9t\u00e9""#, #""""#])),
            (#""status""#, pick([#""DRAFT""#, #""PUBLISHED""#])),
            (#""rating""#, pick(["3", "-7", "3.0", "null", "0", "123456789012345678"])),
            (#""views""#, pick(["5", "2.5", "1e3", "null"])),
            (#""featured""#, pick(["true", "false", "null"])),
            (#""tags""#, pick([#"["a","b"]"#, "[]", "null", #"["x\"y",null]"#])),
            (#""location""#, pick([#"{"lat":1.5,"lon":2,"name":"here"}"#, "null", #"{"name":"é"}"#])),
            (#""metadata""#, pick([#""{\"a\":1}""#, "null", #""[]""#])),
            (#""publishedAt""#, pick([#""2026-01-01T00:00:00.000Z""#, "null"])),
            (#""_version""#, pick(["1", "2", "3", "5"])),
            (#""_lastChangedAt""#, "1700000000000"),
            (#""__typename""#, #""Post""#),
        ]
        if Int.random(in: 0..<3, using: &random) == 0 { members.append((#""_deleted""#, pick(["true", "false", "null"]))) }
        if Int.random(in: 0..<4, using: &random) == 0 { members.append((#""body""#, pick([#""a body""#, #""nul \u0000 inside""#, "null"]))) }
        if Int.random(in: 0..<5, using: &random) == 0 { members.append((#""unknownField""#, #"{"deep":[1,2]}"#)) }
        if Int.random(in: 0..<5, using: &random) == 0 { members.append((#""title""#, #""the second title, not stored""#)) }
        if Int.random(in: 0..<6, using: &random) == 0 { members.append((#""rating""#, "null")) }
        members.shuffle(using: &random)
        let space = Bool.random(using: &random) ? " " : ""
        return "{" + members.map { "\($0.0):\(space)\($0.1)" }.joined(separator: ",\(space)") + "}"
    }

    @Test("a first sync's pages, of random records, store the same rows from text as from items")
    func firstSync() async throws {
        var random = SeededRandom(seed: 31)
        for page in 0..<4 {
            let posts = (0..<150).map { n in Self.randomPost(id: "p\(page)-\(n)", using: &random) }
            #expect(try await applyBothWays(Self.answer(posts, spaced: page % 2 == 1)), "page \(page) is stored from its text")
        }
        #expect(try await rows(text).count == 600)
    }

    @Test("a delta page over stored items, newer and older, stores the same rows from text as from items")
    func deltaOverStoredItems() async throws {
        var random = SeededRandom(seed: 32)
        let first = (0..<100).map { n in Self.randomPost(id: "p\(n)", using: &random) }
        #expect(try await applyBothWays(Self.answer(first)))
        // Half of the next page's items are stored already, at versions above and below its own.
        let delta = (50..<200).map { n in Self.randomPost(id: "p\(n)", using: &random) }
        #expect(try await applyBothWays(Self.answer(delta)), "items already stored go through the item path from the text")
    }

    @Test("a page holding an item twice is parsed, and keeps the newest record as the item path does")
    func itemTwiceInAPage() async throws {
        var random = SeededRandom(seed: 33)
        let posts = (0..<80).map { n in Self.randomPost(id: "p\(n % 60)", using: &random) }
        #expect(try await applyBothWays(Self.answer(posts)) == false)
        #expect(try await rows(text).count == 60)
    }

    @Test("a model keyed by two fields is stored from its text, and a page holding one of its items twice is parsed")
    func compositeKeys() async throws {
        func reaction(_ post: String, _ user: String, _ emoji: String, version: Int) -> String {
            #"{"postID":"\#(post)","userID":"\#(user)","emoji":"\#(emoji)","_version":\#(version),"_lastChangedAt":1700000000000}"#
        }
        // The same user on two posts, two users on one post: four items.
        let distinct = [reaction("p1", "u1", "a", version: 1), reaction("p2", "u1", "b", version: 1), reaction("p1", "u2", "c", version: 2),
                        reaction("p2", "u2", "d", version: 1)]
        #expect(try await applyBothWays(Self.answer(distinct, model: "Reaction"), model: "Reaction"))
        #expect(try await rows(text, "Reaction").count == 4)
        let twice = [reaction("p1", "u1", "e", version: 3), reaction("p3", "u1", "f", version: 1), reaction("p1", "u1", "g", version: 2)]
        #expect(try await applyBothWays(Self.answer(twice, model: "Reaction"), model: "Reaction") == false)
        #expect(try await rows(text, "Reaction").count == 5)
    }

    @Test("records the text path does not bind as written are stored, or refused with nothing stored, as the item path does", arguments: [
        #"{"id":"p1","blogID":"b1","title":"t","status":"DRAFT","rating":"three","_version":1}"#,
        #"{"id":"p1","blogID":"b\u0000x","title":"t","status":"DRAFT","_version":1}"#,
        #"{"blogID":"b1","title":"no id","status":"DRAFT","_version":1}"#,
        #"{"id":"p\u0031","blogID":"b1","title":"an id with an escape","status":"DRAFT","_version":1}"#,
        #"{"id":null,"blogID":"b1","title":"a null id","status":"DRAFT","_version":1}"#,
        #"{"id":"p1","blogID":"b1","title":"t","status":"DRAFT","rating":12345678901234567890,"_version":1}"#,
        #"{"id":"p1","blogID":"b1","title":"t","status":"DRAFT","featured":"yes","_version":1}"#,
    ])
    func refusedRecords(record: String) async throws {
        let good = #"{"id":"p0","blogID":"b1","title":"fine","status":"DRAFT","_version":1}"#
        try await applyBothWays(Self.answer([good, record]))
    }

    @Test("an answer without a page, or not JSON, is refused without storing anything")
    func answersWithoutAPage() async throws {
        let refused = #"{"data":{"syncPosts":null},"errors":[{"errorType":"Unauthorized","message":"Not Authorized to access syncPosts"}]}"#
        await #expect(throws: DataStoreError.rejected(model: "Post", errorType: "Unauthorized", message: "Not Authorized to access syncPosts")) {
            try await text.applyRemote("Post", syncAnswer: refused)
        }
        await #expect(throws: DataStoreError.self) { try await text.applyRemote("Post", syncAnswer: #"{"data":{"syncPosts":{"items":[{"id":"#) }
        await #expect(throws: DataStoreError.self) { try await text.applyRemote("Post", syncAnswer: "<html>") }
        #expect(try await rows(text).isEmpty)
    }
}
