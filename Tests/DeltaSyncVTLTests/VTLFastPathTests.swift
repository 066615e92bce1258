import DeltaSyncCore
@testable import DeltaSyncVTL
import Testing

/// The engine's narrow fast paths against the slow forms they stand for.
struct VTLFastPathTests {
    /// Seeded random values: the direct writer against `json.jsonText`.
    @Test func jsonTextIsTheJSONValuesText() {
        var random = SeededRandom(seed: 37)
        let keys = ["a", "B", "a1", "a10", "a2", "é", "", "x\"y", "tab\t", "z"]
        func value(_ depth: Int) -> VTLValue {
            switch random.next(depth > 2 ? 5 : 7) {
            case 0: return .null
            case 1: return .bool(random.next(2) == 0)
            case 2: return .int(random.next(2000) - 1000)
            case 3: return .double([0.5, -0.0, 1e20, 3.0, .nan, 1e-7][random.next(6)])
            case 4: return .string(keys[random.next(keys.count)] + "\u{1}\\/")
            case 5: return .list(VTLList((0..<random.next(4)).map { _ in value(depth + 1) }))
            default:
                let map = VTLMap()
                for _ in 0..<random.next(6) { map.entries[keys[random.next(keys.count)]] = value(depth + 1) }
                return .map(map)
            }
        }
        for _ in 0..<500 {
            let sample = value(0)
            #expect(sample.jsonText == sample.json.jsonText)
        }
    }

    @Test func namesAreResolvedWhenParsed() throws {
        #expect(VTLMethodName("add").known == .add)
        #expect(VTLMethodName("getAdd").known == nil)
        let template = try VTLTemplate("$util.str.toUpper($x) $util.dynamodb.toDynamoDBJson(1) $util.nope().size()", name: "t.vtl")
        let calls = template.body.nodes.elements.compactMap { ($0 as? VTLPrintNode)?.reference }
        let upper = try #require(calls.first as? VTLUtilCallExpression)
        #expect(upper.name == "str.toUpper")
        #expect(upper.segments.count == 2, "the path up to the call, for a bound $util")
        #expect((calls[1] as? VTLUtilCallExpression)?.name == "dynamodb.toDynamoDBJson")
        // An unknown function fails when it runs, and the rest of the path chains on the call.
        let nope = try #require(calls.last as? VTLSegmentExpression)
        #expect((nope.target as? VTLUtilCallExpression)?.name == "nope")
        #expect { try template.render(["x": .string("a")]) } throws: { ($0 as? VTLError)?.message == "$util.nope is not a function DeltaSync has" }
        #expect(throws: VTLError.self) { try VTLTemplate("$util.str[0]", name: "t.vtl").render([:]) }
        let bound = try VTLTemplate("$util.str.length()", name: "t.vtl").render(["util": .map(VTLMap(["str": .string("abc")]))])
        #expect(bound.output == "3")
    }

    @Test func slotsAreGivenOncePerName() {
        var symbols = VTLSymbols()
        let a = symbols.variable("a")
        #expect(symbols.variable("a").slot == a.slot)
        #expect(symbols.variable("foreach").slot == VTLSymbols.foreach.slot)
        #expect(symbols.variable("velocityCount").slot == VTLSymbols.velocityCount.slot)
        #expect(symbols.variable("b").slot == a.slot + 1)
        let store = VTLVariableStore(symbols: symbols, variables: ["b": .int(2), "unnamed": .int(3)])
        #expect(store.values.count == symbols.names.count)
        #expect(store.values[a.slot + 1] == .int(2))
    }
}

/// A small deterministic generator (SplitMix64), so a failure repeats.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
