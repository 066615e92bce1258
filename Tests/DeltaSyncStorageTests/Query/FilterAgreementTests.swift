import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import DeltaSyncTestSupport
import Testing

/// The key guarantee of each store's filter compiler (SQL on SQLite's columns, on PostgreSQL's
/// jsonb): for random items and random predicates, the items a filtered query returns are
/// exactly those `QueryPredicate.matches` accepts.
@Suite("Store filters agree with QueryPredicate.matches")
struct FilterAgreementTests {
    static let sample = Fixtures.model("Sample", [
        Fixtures.field("id", .id), Fixtures.field("s", .string), Fixtures.field("n", .int),
        Fixtures.field("f", .float), Fixtures.field("b", .boolean), Field(name: "e", type: .enumType("Status")),
        Fixtures.field("j", .awsJSON), Fixtures.field("t", .awsTimestamp), Fixtures.field("tags", .string, list: true),
        Fixtures.field("nums", .float, list: true), Fixtures.field("mixed", .awsJSON, list: true),
        Field(name: "obj", type: .nonModel("Location")),
    ])

    /// The same fields after type changes, so stored values of one column differ in kind.
    static let changed: ModelSchema = {
        var model = sample
        let types: [String: (FieldType, Bool)] = [
            "s": (.scalar(.int), false), "n": (.scalar(.string), false), "b": (.scalar(.string), false),
            "f": (.scalar(.boolean), false), "tags": (.scalar(.string), false), "e": (.scalar(.string), true),
            "j": (.nonModel("Location"), false), "obj": (.scalar(.awsJSON), true),
        ]
        model.fields = model.fields.map { field in
            guard let (type, isList) = types[field.name] else { return field }
            return Field(name: field.name, type: type, isList: isList)
        }
        return model
    }()

    static let fieldNames = sample.fields.map(\.name) + ["_version", "_deleted", "_lastChangedAt", "_ttl", "__typename", "nope"]

    @Test("on items of the schema's types, and again after fields changed type", arguments: StoreKind.allCases)
    func agreement(kind: StoreKind) async throws {
        var random = SeededRandom(seed: 2024)
        // PostgreSQL answers each page over a connection: fewer cases and larger pages keep its
        // run as short as SQLite's.
        let (cases, limits) = kind == .sqlite ? (500, 5...90) : (300, 20...90)
        let place = try kind.place()
        try await place.withStore(Self.sample) { store in
            try await store.put(Self.sample, (0..<80).map { Self.item($0, &random) })
            try await check(store, Self.sample, cases: cases, limits: limits, &random)
        }
        try await place.withStore(Self.changed) { store in
            try await check(store, Self.changed, cases: cases, limits: limits, &random)
        }
    }

    func check(
        _ store: any ItemStore, _ model: ModelSchema, cases: Int, limits: ClosedRange<Int>, _ random: inout SeededRandom
    ) async throws {
        let items = try await store.pages(model, ItemQuery(limit: 1000)).flatMap(\.items)
        #expect(items.count == 80)
        var nonTrivial = 0
        for _ in 0..<cases {
            let predicate = Self.predicate(depth: 3, &random)
            let expected = items.filter { predicate.matches($0) }.map { $0["id"]! }
            let query = ItemQuery(filter: predicate, limit: random.int(in: limits))
            let got = try await store.pages(model, query).flatMap(\.items).map { $0["id"]! }
            #expect(got == expected, "\(predicate)")
            if !expected.isEmpty && expected.count < items.count { nonTrivial += 1 }
        }
        // Guards the generator: random predicates often keep all items or none (which tests the
        // compiler too), but a good share must split them.
        #expect(nonTrivial > cases / 5)
    }

    // MARK: - Items

    static let strings = ["", "a", "ab", "b", "A", "é", "日本", "😀", "a%", "a_b", " ", "12", "0", "1.5", "-3"]
    static let jsonTexts = ["{\"city\":\"Paris\"}", "{}", "[1,2]", "\"x\"", "3", "null", "{\"zip\":1}", "not json"]

    static func item(_ i: Int, _ random: inout SeededRandom) -> Item {
        var item: Item = ["id": .string("i\(i + 100)"), "_version": .int(random.int(in: 1...3))]
        for name in fieldNames where name != "id" && name != "_version" && random.chance(0.8) {
            if let value = fieldValue(name, &random) { item[name] = value }
        }
        return item
    }

    /// A value of the kind the sample schema gives the field; `nil` for fields it does not store.
    static func fieldValue(_ name: String, _ random: inout SeededRandom) -> JSONValue? {
        switch name {
        case "id": return .string("i\(random.int(in: 100...179))")
        case "s": return .string(random.pick(strings))
        case "n", "t": return .int(random.int(in: -3...3))
        case "f": return random.pick([-0.5, 0, 1.5, 2, 2.5, 3])
        case "b", "_deleted": return .bool(random.chance(0.5))
        case "e": return random.pick(["ACTIVE", "DONE", "[\"a\"]"])
        case "j": return .string(random.pick(jsonTexts))
        case "tags": return .array((0..<random.int(in: 0...3)).map { _ in .string(random.pick(strings)) })
        case "nums": return .array((0..<random.int(in: 0...3)).map { _ in random.pick([1, 2, 2.0, 2.5, -1]) })
        case "mixed": return .array((0..<random.int(in: 0...3)).map { _ in scalarOrNested(&random) })
        case "obj": return random.pick([["city": "Paris"], ["city": "Paris", "zip": 1], [:], ["zip": 2.5]])
        case "_version": return .int(random.int(in: 1...3))
        case "_lastChangedAt": return .int(1_700_000_000_000 + random.int(in: 0...2))
        case "__typename": return "Sample"
        default: return nil
        }
    }

    static func scalarOrNested(_ random: inout SeededRandom) -> JSONValue {
        random.pick([
            "a", "b", "", 1, 2, 2.5, true, false, nil, ["a"], ["a", "b"], [1, 2.5], ["city": "Paris"], [:], [],
        ])
    }

    // MARK: - Predicates

    /// Mostly a value like the field's own (so comparisons hit), else any value.
    static func value(_ field: String, _ random: inout SeededRandom) -> JSONValue {
        if random.chance(0.7), let own = fieldValue(field, &random) {
            guard case .array(let elements) = own, !elements.isEmpty, random.chance(0.5) else { return own }
            return random.pick(elements)
        }
        switch random.int(in: 0...5) {
        case 0: return .string(random.pick(strings + jsonTexts))
        case 1: return .int(random.int(in: -3...3))
        case 2: return random.pick([-0.5, 1.5, 2.0, 2.5, 1_700_000_000_001])
        case 3: return .bool(random.chance(0.5))
        case 4: return random.chance(0.2) ? .null : scalarOrNested(&random)
        default:
            return random.pick([[], ["a"], ["a", "b"], [1, 2.5], [2.0], [2], ["city": "Paris"], ["zip": 1, "city": "Paris"], [:]])
        }
    }

    static func predicate(depth: Int, _ random: inout SeededRandom) -> QueryPredicate {
        guard depth > 0, random.chance(0.45) else {
            let name = random.pick(fieldNames)
            return .field(name, fieldOperator(name, &random, allowSize: true))
        }
        switch random.int(in: 0...9) {
        case 0...3: return .and((0..<random.int(in: 0...3)).map { _ in predicate(depth: depth - 1, &random) })
        case 4...7: return .or((0..<random.int(in: 0...3)).map { _ in predicate(depth: depth - 1, &random) })
        case 8: return .not(predicate(depth: depth - 1, &random))
        default: return .all
        }
    }

    static func fieldOperator(_ field: String, _ random: inout SeededRandom, allowSize: Bool) -> FieldOperator {
        switch random.int(in: 0...(allowSize ? 14 : 13)) {
        case 0: return .eq(value(field, &random))
        case 1: return .ne(value(field, &random))
        case 2: return .lt(value(field, &random))
        case 3: return .le(value(field, &random))
        case 4: return .gt(value(field, &random))
        case 5: return .ge(value(field, &random))
        case 6: return .between(value(field, &random), value(field, &random))
        case 7: return .contains(value(field, &random))
        case 8: return .notContains(value(field, &random))
        case 9: return .beginsWith(random.pick(strings + ["{", "[1"]))
        case 10: return .attributeExists(random.chance(0.5))
        case 11: return .attributeType(random.pick(["string", "number", "bool", "list", "map", "_null", "binary"]))
        case 12: return .in((0..<random.int(in: 0...3)).map { _ in value(field, &random) })
        case 13: return .notIn((0..<random.int(in: 0...3)).map { _ in value(field, &random) })
        default:
            let size = JSONValue.int(random.int(in: 0...4))
            return .size(random.chance(0.7)
                ? random.pick([.eq(size), .ne(size), .lt(size), .ge(size), .between(1, size)])
                : fieldOperator(field, &random, allowSize: false))
        }
    }
}
