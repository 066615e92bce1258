import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncTestSupport
import Testing

/// Random rules on two related models, random items of two owners, random reads and writes by
/// random callers: no answer (data, errors, error data) ever carries a value that the rules,
/// read by a small oracle of their own here, do not let that caller read.
///
/// Every stored text is a unique marker naming its item and field, so a leak is found wherever
/// it appears. A failing seed replays the same schema and requests.
@Suite(.serialized) struct AuthorizationOracleTests {
    /// One `@auth` rule, as the oracle reads it.
    struct Rule: CustomStringConvertible {
        enum Kind { case owner, privateUsers, adminGroup, apiKey }
        var kind: Kind
        /// `nil`: every operation.
        var operations: [String]?

        var description: String {
            let ops = operations.map { ", operations: [\($0.joined(separator: ", "))]" } ?? ""
            switch kind {
            case .owner: return "{ allow: owner\(ops) }"
            case .privateUsers: return "{ allow: private\(ops) }"
            case .adminGroup: return "{ allow: groups, groups: [\"Admin\"]\(ops) }"
            case .apiKey: return "{ allow: public, provider: apiKey\(ops) }"
            }
        }

        var readsItems: Bool { operations.map { $0.contains("read") } ?? true }

        /// Whether `caller` reads an item stored with `owner` through this rule.
        func admits(_ caller: TestCaller, owner: String?) -> Bool {
            guard readsItems else { return false }
            switch kind {
            case .owner: return caller.username != nil && owner == caller.username
            case .privateUsers: return caller.username != nil
            case .adminGroup: return caller == .member
            case .apiKey: return caller == .apiKey
            }
        }
    }

    /// A model's rules and the rules of its `note` field (`nil`: the model's apply).
    struct ModelRules {
        var rules: [Rule]
        var noteRules: [Rule]?

        func reads(_ caller: TestCaller, owner: String?) -> Bool { rules.contains { $0.admits(caller, owner: owner) } }

        func readsNote(_ caller: TestCaller, owner: String?) -> Bool {
            guard reads(caller, owner: owner) else { return false }
            return noteRules.map { $0.contains { $0.admits(caller, owner: owner) } } ?? true
        }

        var text: String { rules.map(\.description).joined(separator: ", ") }
        var noteDirective: String { noteRules.map { " @auth(rules: [\($0.map(\.description).joined(separator: ", "))])" } ?? "" }
    }

    static func randomRules(_ random: inout SeededRandom) -> ModelRules {
        // Owners may always do everything, so every caller's items exist; the rest varies.
        var rules = [Rule(kind: .owner, operations: nil)]
        let extras: [Rule] = [
            Rule(kind: .privateUsers, operations: ["read"]), Rule(kind: .privateUsers, operations: nil),
            Rule(kind: .adminGroup, operations: ["read"]), Rule(kind: .adminGroup, operations: ["update"]),
            Rule(kind: .adminGroup, operations: nil), Rule(kind: .apiKey, operations: ["read"]),
            Rule(kind: .apiKey, operations: ["create", "read"]),
        ]
        for extra in extras where random.chance(0.3) { rules.append(extra) }
        let noteRules: [Rule]?
        switch random.int(in: 0...2) {
        case 0: noteRules = nil
        case 1: noteRules = [Rule(kind: .owner, operations: nil)]
        default: noteRules = [Rule(kind: .owner, operations: nil), Rule(kind: .adminGroup, operations: ["read"])]
        }
        return ModelRules(rules: rules, noteRules: noteRules)
    }

    /// What one stored value is: whose item, which field.
    struct Marker {
        var model: String
        var owner: String
        var isNote: Bool
    }

    @Test(arguments: 0..<6)
    func noAnswerCarriesAValueTheRulesDoNotLetTheCallerRead(seed: UInt64) async throws {
        var random = SeededRandom(seed: 0xA0_7400 + seed)
        let parentRules = Self.randomRules(&random)
        let childRules = Self.randomRules(&random)
        let schema = """
            type Parent @model @auth(rules: [\(parentRules.text)]) {
              id: ID!
              title: String
              note: String\(parentRules.noteDirective)
              children: [Child] @hasMany
            }
            type Child @model @auth(rules: [\(childRules.text)]) {
              id: ID!
              body: String
              note: String\(childRules.noteDirective)
              status: String
              parent: Parent @belongsTo
            }
            """
        let rules = ["Parent": parentRules, "Child": childRules]
        try await AuthorizationFixture.withServer(schema: schema) { fixture in
            var markers: [String: Marker] = [:]
            var parents: [String] = []
            var children: [String] = []
            func create(_ model: String, id: String, by owner: TestCaller, parent: String? = nil, selection: String = "id") async throws -> JSONValue {
                let text = model == "Parent" ? "title" : "body"
                markers["m-\(id)-\(text)"] = Marker(model: model, owner: owner.rawValue, isNote: false)
                markers["m-\(id)-note"] = Marker(model: model, owner: owner.rawValue, isNote: true)
                var input: [String: JSONValue] = ["id": .string(id), .init(text): .string("m-\(id)-\(text)"), "note": .string("m-\(id)-note")]
                if let parent { input["parentChildrenId"] = .string(parent) }
                return try await fixture.ask(
                    owner, "mutation($i: Create\(model)Input!) { create\(model)(input: $i) { \(selection) } }", ["i": .object(input)])
            }
            for owner in [TestCaller.owner, .other] {
                for n in 0..<2 {
                    let id = "p-\(owner.rawValue)-\(n)"
                    #expect(try await create("Parent", id: id, by: owner)["errors"].isNull)
                    parents.append(id)
                }
            }
            for owner in [TestCaller.owner, .other] {
                for n in 0..<3 {
                    let id = "c-\(owner.rawValue)-\(n)"
                    #expect(try await create("Child", id: id, by: owner, parent: random.pick(parents))["errors"].isNull)
                    children.append(id)
                }
            }

            let callers: [TestCaller] = [.owner, .other, .member, .apiKey, .none]
            let childSelection = "id body note status _version parent { id title note }"
            let parentSelection = "id title note children { items { id body note } }"
            var seen = 0
            for step in 0..<24 {
                let caller = random.pick(callers)
                let answer: JSONValue
                switch random.int(in: 0...7) {
                case 0: answer = try await fixture.ask(caller, "{ getParent(id: \"\(random.pick(parents))\") { \(parentSelection) } }")
                case 1: answer = try await fixture.ask(caller, "{ getChild(id: \"\(random.pick(children))\") { \(childSelection) } }")
                case 2: answer = try await fixture.ask(caller, "{ listParents { items { \(parentSelection) } } }")
                case 3: answer = try await fixture.ask(caller, "{ listChildren { items { \(childSelection) } } }")
                case 4: answer = try await fixture.ask(caller, "{ syncChildren { items { \(childSelection) } } }")
                case 5:
                    // A create by the caller that reads its parent back.
                    let id = "c-new-\(step)"
                    answer = try await create("Child", id: id, by: caller, parent: random.pick(parents), selection: childSelection)
                    if answer["errors"].isNull { children.append(id) }
                case 6:
                    // A stale update: conflict data, or a merge's result.
                    answer = try await fixture.ask(
                        caller, "mutation($i: UpdateChildInput!) { updateChild(input: $i) { \(childSelection) } }",
                        ["i": ["id": .string(random.pick(children)), "status": .string("s\(step)"), "_version": 0]])
                default:
                    answer = try await fixture.ask(
                        caller, "mutation($i: DeleteChildInput!) { deleteChild(input: $i) { \(childSelection) } }",
                        ["i": ["id": .string(random.pick(children)), "_version": 0]])
                }
                for text in answer.allStrings {
                    guard let marker = markers[text] ?? markers.first(where: { text.contains($0.key) })?.value else { continue }
                    let model = rules[marker.model]!
                    let readable = marker.isNote ? model.readsNote(caller, owner: marker.owner) : model.reads(caller, owner: marker.owner)
                    #expect(readable, "seed \(seed) step \(step): \(caller) read \(text) (\(marker.model) of \(marker.owner)) in \(answer.jsonText)\n\(schema)")
                    seen += 1
                }
            }
            // Not vacuous: the owners read their own items.
            let own = try await fixture.ask(.owner, "{ getParent(id: \"p-alice-0\") { title } }")
            #expect(own["data"]["getParent"]["title"] == "m-p-alice-0-title")
            _ = seen
        }
    }
}
