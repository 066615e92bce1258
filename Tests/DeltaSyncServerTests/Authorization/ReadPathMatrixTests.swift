import DeltaSyncCore
import DeltaSyncFunctions
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncTesting
import Synchronization
import Testing

/// Every path that returns model data, asked by every kind of caller, against rules of every
/// shape: what one caller stored never reaches another who may not read it. The values that
/// must not leak are unique strings and numbers, searched for anywhere in the answer (data,
/// errors, error data, events).
///
/// Alice owns everything below but Bob's card; Carol is in `Admin` and `Support`.
/// Serialized: every case starts a server and seeds it; run side by side on the PostgreSQL
/// store they crowded out the timing-sensitive realtime suites on two cores.
@Suite(.serialized) struct ReadPathMatrixTests {
    static let schema = """
        type Board @model @auth(rules: [
            { allow: private }, { allow: public, provider: apiKey, operations: [read] }, { allow: private, provider: iam }
        ]) {
          id: ID!
          title: String!
          cards: [Card] @hasMany
        }
        type Card @model @auth(rules: [{ allow: owner }, { allow: groups, groups: ["Admin"], operations: [read] }]) {
          id: ID!
          text: String!
          board: Board @belongsTo
          summary: String @function(name: "cardSummary")
        }
        type Diary @model @auth(rules: [{ allow: owner }]) {
          id: ID!
          title: String!
          entries: [Entry] @hasMany
        }
        type Entry @model @auth(rules: [{ allow: owner }, { allow: private, operations: [read] }]) {
          id: ID!
          text: String!
          diary: Diary @belongsTo
        }
        type Post @model @auth(rules: [{ allow: owner }]) {
          id: ID!
          secret: String
          comments: [Comment] @hasMany
        }
        type Comment @model @auth(rules: [{ allow: private }]) {
          id: ID!
          text: String
          post: Post @belongsTo
        }
        type Ticket @model @auth(rules: [{ allow: owner }, { allow: groups, groups: ["Support"], operations: [update] }]) {
          id: ID!
          subject: String!
          status: String
        }
        type Profile @model @auth(rules: [
            { allow: owner }, { allow: private, operations: [read] }, { allow: public, provider: apiKey, operations: [read] }
        ]) {
          id: ID!
          name: String
          salary: Int @auth(rules: [{ allow: owner }]) @index(name: "bySalary", queryField: "profilesBySalary")
        }
        """

    /// Values only Alice may read.
    static let aliceCard = "alice-card-text"
    static let diaryTitle = "alice-diary-title"
    static let postSecret = "alice-post-secret"
    static let ticketSubject = "alice-ticket-subject"
    static let salary = 123_457

    /// Alice's items, and a card of Bob's on her board.
    static func seed(_ fixture: AuthorizationFixture) async throws {
        try await fixture.expectData(.owner, "createBoard", #"mutation { createBoard(input: {id: "b1", title: "Board"}) { id } }"#)
        try await fixture.expectData(
            .owner, "createCard", #"mutation { createCard(input: {id: "c1", text: "\#(aliceCard)", boardCardsId: "b1"}) { id } }"#)
        try await fixture.expectData(
            .other, "createCard", #"mutation { createCard(input: {id: "c2", text: "bob-card-text", boardCardsId: "b1"}) { id } }"#)
        try await fixture.expectData(.owner, "createDiary", #"mutation { createDiary(input: {id: "d1", title: "\#(diaryTitle)"}) { id } }"#)
        try await fixture.expectData(
            .owner, "createEntry", #"mutation { createEntry(input: {id: "e1", text: "entry", diaryEntriesId: "d1"}) { id } }"#)
        try await fixture.expectData(.owner, "createPost", #"mutation { createPost(input: {id: "p1", secret: "\#(postSecret)"}) { id } }"#)
        try await fixture.expectData(
            .owner, "createTicket", #"mutation { createTicket(input: {id: "t1", subject: "\#(ticketSubject)"}) { id } }"#)
        try await fixture.expectData(
            .owner, "createProfile", #"mutation { createProfile(input: {id: "pr1", name: "Alice", salary: \#(salary)}) { id } }"#)
    }

    static func withSeeded(
        handler: ConflictHandlerKind = .automerge, _ body: (AuthorizationFixture) async throws -> Void
    ) async throws {
        try await AuthorizationFixture.withServer(schema: schema, configure: { $0.conflictHandler = handler }) { fixture in
            try await seed(fixture)
            try await body(fixture)
        }
    }

    /// Whether `answer` carries a value only Alice may read.
    static func leaks(_ answer: JSONValue) -> [String] {
        let secrets = [aliceCard, diaryTitle, postSecret, ticketSubject]
        return answer.allStrings.filter { text in secrets.contains { text.contains($0) } }
            + answer.allIntegers.filter { $0 == salary }.map(String.init)
    }

    static func unauthorized(_ answer: JSONValue, _ field: String, on type: String) -> Bool {
        (answer["errors"].arrayValue ?? []).contains {
            $0["errorType"] == "Unauthorized" && $0["message"] == .string("Not Authorized to access \(field) on type \(type)")
        }
    }

    /// Reads through relations, as each caller: a connection holds only the related items the
    /// caller may read, a related object they may not read is `null` with the field's error.
    @Test(arguments: [
        (TestCaller.other, "{ getBoard(id: \"b1\") { title cards { items { id text } } } }"),
        (.other, "{ listBoards { items { title cards { items { id text } } } } }"),
        (.other, "{ syncBoards { items { id cards { items { text } } } } }"),
        (.other, "{ getEntry(id: \"e1\") { text diary { title } } }"),
        (.other, "{ listEntries { items { text diary { title } } } }"),
        (.other, "{ syncEntries { items { text diary { title } } } }"),
        (.apiKey, "{ getBoard(id: \"b1\") { title cards { items { text } } } }"),
        (.apiKey, "{ listBoards { items { cards { items { text } } } } }"),
        (.iam, "{ getBoard(id: \"b1\") { title cards { items { text } } } }"),
        (.member, "{ getEntry(id: \"e1\") { diary { title } } }"),
    ])
    func relationsReadOnlyWhatTheRelatedRulesAllow(caller: TestCaller, query: String) async throws {
        try await Self.withSeeded { fixture in
            let answer = try await fixture.ask(caller, query)
            #expect(Self.leaks(answer).isEmpty, "\(caller) read \(Self.leaks(answer)) through \(query): \(answer.jsonText)")
            // The parent itself is answered: refusing the relation does not refuse the query.
            #expect(!answer["data"].isNull, "\(answer.jsonText)")
        }
    }

    @Test func aConnectionIsNarrowedAndAnObjectIsRefusedWithTheFieldsError() async throws {
        try await Self.withSeeded { fixture in
            let board = try await fixture.ask(.other, "{ getBoard(id: \"b1\") { cards { items { id } } } }")
            #expect(board["data"]["getBoard"]["cards"]["items"] == [["id": "c2"]])
            #expect(board["errors"].isNull)
            // Alice reads her own card only, though the board is hers; the Admin group reads both.
            let ownerView = try await fixture.ask(.owner, "{ getBoard(id: \"b1\") { cards { items { id } } } }")
            #expect(ownerView["data"]["getBoard"]["cards"]["items"] == [["id": "c1"]])
            let adminView = try await fixture.ask(.member, "{ getBoard(id: \"b1\") { cards { items { id } } } }")
            #expect(adminView["data"]["getBoard"]["cards"]["items"].arrayValue?.count == 2)

            let entry = try await fixture.ask(.other, "{ getEntry(id: \"e1\") { text diary { title } } }")
            #expect(entry["data"]["getEntry"]["text"] == "entry")
            #expect(entry["data"]["getEntry"]["diary"].isNull)
            #expect(Self.unauthorized(entry, "diary", on: "Entry"))
            #expect(entry["errors"][0]["path"] == ["getEntry", "diary"])
            // The API key reads boards but no card: the connection is refused, not emptied.
            let byKey = try await fixture.ask(.apiKey, "{ getBoard(id: \"b1\") { title cards { items { id } } } }")
            #expect(byKey["data"]["getBoard"]["title"] == "Board")
            #expect(byKey["data"]["getBoard"]["cards"].isNull)
            #expect(Self.unauthorized(byKey, "cards", on: "Board"))
            // The owner reads through the same relation.
            let own = try await fixture.ask(.owner, "{ getEntry(id: \"e1\") { diary { title } } }")
            #expect(own["data"]["getEntry"]["diary"]["title"] == .string(Self.diaryTitle))
        }
    }

    /// A create's result reads the parent through the caller's own rules: anyone who may
    /// create a child does not read any parent by naming its id.
    @Test func aMutationResultReadsRelationsAsItsCaller() async throws {
        try await Self.withSeeded { fixture in
            let created = try await fixture.ask(
                .other, #"mutation { createComment(input: {id: "k1", text: "hi", postCommentsId: "p1"}) { id post { id secret owner } } }"#)
            #expect(created["data"]["createComment"]["id"] == "k1")
            #expect(created["data"]["createComment"]["post"].isNull)
            #expect(Self.unauthorized(created, "post", on: "Comment"))
            #expect(Self.leaks(created).isEmpty)
            let byOwner = try await fixture.ask(
                .owner, #"mutation { createComment(input: {id: "k2", text: "hi", postCommentsId: "p1"}) { id post { secret } } }"#)
            #expect(byOwner["data"]["createComment"]["post"]["secret"] == .string(Self.postSecret))
        }
    }

    /// Subscription events carry what the mutation selected: each subscriber sees the related
    /// objects their own rules let them read.
    @Test func eventsShowEachSubscriberOnlyTheRelatedItemsTheyMayRead() async throws {
        try await Self.withSeeded { fixture in
            let bob = try await fixture.realtime(.other)
            let alice = try await fixture.realtime(.owner)
            let query = "subscription { onCreateComment { id post { secret } } }"
            fixture.start(bob, id: "b", as: .other, query)
            fixture.start(alice, id: "a", as: .owner, query)
            _ = try await bob.next("start_ack")
            _ = try await alice.next("start_ack")
            // The owner rule is checked on the related object the event carries, so the mutation
            // selects the post's owner, as AppSync's own owner filtering needs it selected.
            try await fixture.expectData(
                .owner, "createComment", #"mutation { createComment(input: {id: "k3", postCommentsId: "p1"}) { id post { secret owner } } }"#)
            let toBob = try await bob.next("data")
            #expect(toBob["payload"]["data"]["onCreateComment"]["id"] == "k3")
            #expect(toBob["payload"]["data"]["onCreateComment"]["post"].isNull)
            #expect(Self.leaks(toBob).isEmpty, "\(toBob.jsonText)")
            let toAlice = try await alice.next("data")
            #expect(toAlice["payload"]["data"]["onCreateComment"]["post"]["secret"] == .string(Self.postSecret))
            // Without the owner in the event, nobody can be shown to own the post: null for all.
            try await fixture.expectData(
                .owner, "createComment", #"mutation { createComment(input: {id: "k4", postCommentsId: "p1"}) { id post { secret } } }"#)
            let unowned = try await alice.next("data")["payload"]
            #expect(unowned["data"]["onCreateComment"]["id"] == "k4")
            #expect(unowned["data"]["onCreateComment"]["post"].isNull)
            #expect(Self.unauthorized(unowned, "post", on: "Comment"))
            #expect(Self.leaks(try await bob.next("data")).isEmpty)
            _ = await bob.close()
            _ = await alice.close()
        }
    }

    /// A caller who may update but not read learns nothing from a conflict or a condition.
    @Test func errorDataCarriesOnlyWhatTheCallerMayRead() async throws {
        try await Self.withSeeded(handler: .optimisticConcurrency) { fixture in
            let stale = try await fixture.ask(
                .member, #"mutation { updateTicket(input: {id: "t1", status: "open", _version: 0}) { id subject owner _version } }"#)
            #expect(stale["errors"][0]["errorType"] == "ConflictUnhandled")
            #expect(stale["errors"][0]["data"].isNull, "\(stale.jsonText)")
            #expect(Self.leaks(stale).isEmpty)
            // A condition on a value they may not read is refused rather than answered.
            let probing = try await fixture.ask(
                .member,
                #"mutation { updateTicket(input: {id: "t1", status: "x", _version: 1}, condition: {subject: {beginsWith: "alice"}}) { id } }"#)
            #expect(Self.unauthorized(probing, "updateTicket", on: "Mutation"), "\(probing.jsonText)")
            #expect(Self.leaks(probing).isEmpty)
            // The owner's own stale update shows her the stored item.
            let own = try await fixture.ask(
                .owner, #"mutation { updateTicket(input: {id: "t1", status: "open", _version: 0}) { id subject _version } }"#)
            #expect(own["errors"][0]["data"]["subject"] == .string(Self.ticketSubject))
        }
    }

    /// What a caller who may update but not read gets back from a write: nothing of the item
    /// (the write happens, and subscribers who may read it receive its event in full).
    @Test func aWriterWhoMayNotReadGetsNoResultButSubscribersGetTheEvent() async throws {
        try await Self.withSeeded { fixture in
            let alice = try await fixture.realtime(.owner)
            fixture.start(alice, id: "a", as: .owner, "subscription { onUpdateTicket { id subject status } }")
            _ = try await alice.next("start_ack")
            // A stale write merges (Automerge), as a fresh one would be applied.
            let merged = try await fixture.ask(
                .member, #"mutation { updateTicket(input: {id: "t1", status: "closed", _version: 0}) { id subject status owner } }"#)
            #expect(merged["errors"].isNull, "\(merged.jsonText)")
            #expect(merged["data"]["updateTicket"].isNull)
            #expect(Self.leaks(merged).isEmpty)
            let event = try await alice.next("data")["payload"]["data"]["onUpdateTicket"]
            #expect(event["status"] == "closed")
            #expect(event["subject"] == .string(Self.ticketSubject))
            // Two mutations in one request go through the executor: the same. (An event holds
            // what the mutation selected: Alice's events are filtered on the owner, as on AppSync.)
            let twice = try await fixture.ask(
                .member,
                #"mutation { a: updateTicket(input: {id: "t1", status: "a", _version: 2}) { id subject status owner } b: updateTicket(input: {id: "t1", status: "b", _version: 3}) { id subject status owner } }"#)
            #expect(twice["errors"].isNull, "\(twice.jsonText)")
            #expect(Self.leaks(twice).isEmpty)
            #expect(try await alice.next("data")["payload"]["data"]["onUpdateTicket"]["status"] == "a")
            #expect(try await alice.next("data")["payload"]["data"]["onUpdateTicket"]["status"] == "b")
            _ = await alice.close()
        }
    }

    /// Filters, sort key conditions and subscription filters may not compare a field the
    /// caller may not read: a binary search over `ge` would reveal its value.
    @Test(arguments: [
        "{ listProfiles(filter: {salary: {ge: 123457}}) { items { id } } }",
        "{ syncProfiles(filter: {salary: {ge: 123457}}) { items { id } } }",
        "{ profilesBySalary(salary: 123457) { items { id } } }",
        "{ listProfiles(filter: {not: {salary: {lt: 123457}}}) { items { id } } }",
    ])
    func aFilterOnAFieldTheCallerMayNotReadIsRefused(query: String) async throws {
        try await Self.withSeeded { fixture in
            let answer = try await fixture.ask(.other, query)
            #expect(answer["errors"][0]["errorType"] == "Unauthorized", "\(answer.jsonText)")
            #expect(answer["errors"][0]["message"] == "Not Authorized to access salary on type Profile")
            #expect((answer["data"].objectValue?.values.allSatisfy(\.isNull)) ?? true)
            // A filter on a field Bob may read still works.
            let byName = try await fixture.expectData(.other, "listProfiles", #"{ listProfiles(filter: {name: {eq: "Alice"}}) { items { id name } } }"#)
            #expect(byName["items"] == [["id": "pr1", "name": "Alice"]])
        }
    }

    @Test func aSubscriptionFilterOnAFieldTheCallerMayNotReadIsRefused() async throws {
        try await Self.withSeeded { fixture in
            let bob = try await fixture.realtime(.other)
            fixture.start(bob, id: "s", as: .other, "subscription { onUpdateProfile(filter: {salary: {ge: 100}}) { id } }")
            let refused = try await bob.next("error")
            #expect(refused["payload"]["errors"][0]["errorType"] == "Unauthorized")
            #expect(refused["payload"]["errors"][0]["message"] == "Not Authorized to access salary on type Profile")
            fixture.start(bob, id: "n", as: .other, #"subscription { onUpdateProfile(filter: {name: {eq: "Alice"}}) { id } }"#)
            #expect(try await bob.next("start_ack")["id"] == "n")
            _ = await bob.close()
        }
    }

    /// Without credentials nothing is read at all.
    @Test func noCredentialsReadNothing() async throws {
        try await Self.withSeeded { fixture in
            let answer = try await fixture.ask(.none, "{ getBoard(id: \"b1\") { cards { items { text } } } }")
            #expect(answer["errors"][0]["errorType"] == "UnauthorizedException")
            #expect(Self.leaks(answer).isEmpty)
        }
    }

    /// A `@function` field gets as `source` only parents the caller reached: a function on a
    /// card runs for the cards of a board the caller may read, never for the others.
    @Test func aFunctionGetsOnlyTheParentsTheCallerReached() async throws {
        let sources = Mutex<[JSONValue]>([])
        try await AuthorizationFixture.withServer(schema: Self.schema, configure: {
            $0.functions["cardSummary"] = ClosureFunction { invocation in
                sources.withLock { $0.append(invocation.event["source"]) }
                return .string("summary")
            }
        }) { fixture in
            try await Self.seed(fixture)
            let answer = try await fixture.ask(.other, "{ getBoard(id: \"b1\") { cards { items { id summary } } } }")
            #expect(answer["data"]["getBoard"]["cards"]["items"] == [["id": "c2", "summary": "summary"]])
            let seen = sources.withLock { $0 }
            #expect(seen.map { $0["id"] } == ["c2"])
            #expect(Self.leaks(.array(seen)).isEmpty)
            // Through a relation the caller may not read at all, the function is never called.
            let byKey = try await fixture.ask(.apiKey, "{ getBoard(id: \"b1\") { cards { items { summary } } } }")
            #expect(byKey["data"]["getBoard"]["cards"].isNull)
            #expect(sources.withLock { $0.count } == 1)
        }
    }

    /// Through `@manyToMany` the join items hold only keys; the related item on the far side is
    /// read by its own model's rules, as any `@belongsTo`.
    @Test func aManyToManyReadsTheFarSideByItsOwnRules() async throws {
        let schema = """
            type Recipe @model @auth(rules: [{ allow: owner }, { allow: private, operations: [read] }]) {
              id: ID!
              name: String
              tags: [Tag] @manyToMany(relationName: "RecipeTags")
            }
            type Tag @model @auth(rules: [{ allow: owner }]) {
              id: ID!
              label: String
              recipes: [Recipe] @manyToMany(relationName: "RecipeTags")
            }
            """
        try await AuthorizationFixture.withServer(schema: schema) { fixture in
            try await fixture.expectData(.owner, "createRecipe", #"mutation { createRecipe(input: {id: "r1", name: "Soup"}) { id } }"#)
            try await fixture.expectData(.owner, "createTag", #"mutation { createTag(input: {id: "t1", label: "\#(Self.diaryTitle)"}) { id } }"#)
            try await fixture.expectData(
                .owner, "createRecipeTags", #"mutation { createRecipeTags(input: {id: "j1", recipeID: "r1", tagID: "t1"}) { id } }"#)
            let query = #"{ getRecipe(id: "r1") { name tags { items { tag { label } } } } }"#
            let bob = try await fixture.ask(.other, query)
            #expect(bob["data"]["getRecipe"]["name"] == "Soup")
            #expect(bob["data"]["getRecipe"]["tags"]["items"][0]["tag"].isNull, "\(bob.jsonText)")
            #expect(Self.unauthorized(bob, "tag", on: "RecipeTags"))
            #expect(Self.leaks(bob).isEmpty)
            let alice = try await fixture.ask(.owner, query)
            #expect(alice["data"]["getRecipe"]["tags"]["items"][0]["tag"]["label"] == .string(Self.diaryTitle))
            // A join item whose tag is gone: that item is null with the non-null field's error,
            // the rest of the answer stands.
            try await fixture.expectData(
                .owner, "createRecipeTags", #"mutation { createRecipeTags(input: {id: "j2", recipeID: "r1", tagID: "gone"}) { id } }"#)
            let dangling = try await fixture.ask(.owner, #"{ getRecipe(id: "r1") { name tags { items { id tag { label } } } } }"#)
            let items = dangling["data"]["getRecipe"]["tags"]["items"].arrayValue ?? []
            #expect(items.count == 2 && items.contains(.null), "\(dangling.jsonText)")
            #expect(items.contains { $0["tag"]["label"] == .string(Self.diaryTitle) })
            #expect(dangling["errors"][0]["message"].stringValue?.contains("non-nullable") == true, "\(dangling.jsonText)")
        }
    }
}
