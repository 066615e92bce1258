import DeltaSyncLocalStore
import Foundation
import Testing

/// The models of this target's schema compile although their names clash with the names
/// generated code uses, and they work: stored, read back and sent in AppSync's shape.
struct GeneratedNamesTests {
    @Test("a field named like a member every model has becomes a property with a trailing underscore")
    func renamedField() async throws {
        let item = Item(id: "i1", item_: "the item field", at: Foundation.Date(timeIntervalSince1970: 1_700_000_000))
        #expect(item.item["item"] == "the item field", "the wire name stays `item`")
        #expect(Item.keys.item_.name == "item")

        let store = try DataStore(models: DeltaSyncModels.self)
        try await store.save(item)
        try await store.save(Date(id: "d1", day: "2026-01-02", itemID: "i1"))
        let stored = try #require(try await store.query(Item.self, where: Item.keys.item_ == "the item field").first)
        #expect(stored == item)
        #expect(try await stored.dates.fetch(from: store).map(\.id) == ["d1"])
        let date = try #require(try await store.query(Date.self, byId: "d1"))
        #expect(try await date.item_.get(from: store)?.item_ == "the item field", "a relation named item is renamed too")
    }

    @Test("enum values that would share a case name keep their GraphQL spelling")
    func enumCases() throws {
        #expect(Stage.allCases.map(\.rawValue) == ["IN_REVIEW", "inReview", "in_review", "RAW_VALUE", "allCases"])
        #expect(Stage.inReview.rawValue == "IN_REVIEW")
        #expect(Stage.in_review.rawValue == "in_review")
        #expect(Item(item_: "x").stage == .in_review, "the @default names the right case")
        let decoded = try JSONDecoder().decode(Item.self, from: Data(#"{"id":"i2","item":"x","stage":"inReview"}"#.utf8))
        #expect(decoded.stage?.rawValue == "inReview")
    }

    @Test("non-model fields named json and item, and models named Keys and Model, work")
    func otherClashes() async throws {
        let detail = Detail(json_: "{}", item_: 3)
        #expect(detail.item == ["json": "{}", "item": 3])
        #expect(Keys.keys.keys.name == "keys", "the typed keys of Keys are its Fields")
        let store = try DataStore(models: DeltaSyncModels.self)
        try await store.save(Keys(id: "k1", name: "first", keys: ["a"]))
        try await store.save(Model(id: "m1", created: Foundation.Date(timeIntervalSince1970: 5)))
        #expect(try await store.query(Keys.self, where: Keys.keys.name == "first").map(\.keys) == [["a"]])
        #expect(try await store.query(Model.self, byId: "m1")?.created == Foundation.Date(timeIntervalSince1970: 5))
    }
}
