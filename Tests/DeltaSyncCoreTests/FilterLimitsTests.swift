import DeltaSyncCore
import DeltaSyncTestSupport
import Testing

/// `FilterLimits.refusal(of:)` counts what `QueryPredicate(filter:limits:)` counts, without
/// building: the server refuses a large filter variable with it before GraphQL coerces it.
@Suite struct FilterLimitsTests {
    /// A well-formed filter of random shape: groups up to `depth` levels, `in` lists, nulls.
    static func filter(_ random: inout SeededRandom, depth: Int) -> JSONValue {
        var object: [String: JSONValue] = [:]
        for index in 0..<random.int(in: 1...3) {
            switch random.int(in: 0...5) {
            case 0 where depth > 0, 1 where depth > 0:
                let children = (0..<random.int(in: 0...6)).map { _ in random.chance(0.1) ? JSONValue.null : filter(&random, depth: depth - 1) }
                object[random.chance(0.5) ? "and" : "or"] = .array(children)
            case 2 where depth > 0:
                object["not"] = filter(&random, depth: depth - 1)
            case 3:
                object["rating\(index)"] = ["in": .array((0..<random.int(in: 0...40)).map { .int($0) })]
            case 4:
                object["title\(index)"] = random.chance(0.2) ? .null : ["eq": "x", "ne": random.chance(0.5) ? .null : "y"]
            default:
                object["views\(index)"] = ["between": [1, 2]]
            }
        }
        return .object(object)
    }

    @Test("refusal(of:) refuses exactly the filters the builder refuses, over 2,000 seeded filters")
    func agreesWithTheBuilder() {
        var random = SeededRandom(seed: 42)
        var limits = FilterLimits()
        limits.maxDepth = 4
        limits.maxConditions = 60
        var refused = 0
        for _ in 0..<2_000 {
            let filter = Self.filter(&random, depth: random.int(in: 0...6))
            let built: AppSyncError?
            do {
                _ = try QueryPredicate(filter: filter, limits: limits)
                built = nil
            } catch {
                built = error as? AppSyncError
            }
            let counted = limits.refusal(of: filter)
            #expect((counted == nil) == (built == nil), "\(filter.jsonText)")
            if let counted { #expect(counted.errorType == .invalidArgument) }
            if counted != nil { refused += 1 }
        }
        // Both sides of the bound are exercised.
        #expect(refused > 200 && refused < 1_800, "\(refused) of 2,000 refused")
    }

    @Test("a 100,000-clause or and a filter nested 1,000 levels are refused, saying which bound")
    func hugeFiltersAreRefused() {
        // Results are taken out of #expect, which would describe the inputs it was given.
        let wide: JSONValue = ["or": .array(Array(repeating: ["rating": ["eq": 1]], count: 100_000))]
        let wideRefusal = FilterLimits().refusal(of: wide)
        #expect(wideRefusal?.message.contains("more than 300 conditions") == true)
        var deep: JSONValue = ["rating": ["eq": 1]]
        for _ in 0..<1_000 { deep = ["not": deep] }
        let deepRefusal = FilterLimits().refusal(of: deep)
        #expect(deepRefusal?.message.contains("more than 10 levels deep") == true)
        #expect(FilterLimits().refusal(of: ["or": .array(Array(repeating: ["rating": ["eq": 1]], count: 300))]) == nil)
    }
}
