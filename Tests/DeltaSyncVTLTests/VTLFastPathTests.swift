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

    /// Entries, typed values and `$foreach` start compact: read, printed, written as JSON,
    /// compared and changed as the maps they stand for.
    @Test func compactMapsAnswerAsTheirEntries() throws {
        let entries = #"#set($src = {"b": 1})#foreach($e in $src.entrySet())$util.toJson($e) $e $e.key $e["value"] $e.containsKey("value") $e.size()$util.qr($e.put("x", 2)) $e#end"#
        #expect(try VTLEngineTests.render(entries) == #"{"key":"b","value":1} {key=b, value=1} b 1 true 2 {key=b, value=1, x=2}"#)
        let typed = #"#set($t = $util.dynamodb.toDynamoDB("x"))$t $t.S $util.toJson($t) $t.keySet()$util.qr($t.put("N", 1)) $util.toJson($t)"#
        #expect(try VTLEngineTests.render(typed) == #"{S=x} x {"S":"x"} [S] {"N":1,"S":"x"}"#)
        #expect(try VTLEngineTests.render(#"#if($util.dynamodb.toDynamoDB([1]) == {"L": [{"N": 1}]})equal#end"#) == "equal")
        let kept = "#foreach($i in [1, 2])#set($kept = $foreach)#end$kept $util.toJson($kept) $kept.size()"
        #expect(try VTLEngineTests.render(kept) == #"{count=2, index=1, hasNext=false, first=false, last=true} {"count":2,"first":false,"hasNext":false,"index":1,"last":true} 5"#)
        let json = VTLValue(json: ["b": ["c": 1], "a": [1]])
        #expect(json.jsonText == #"{"a":[1],"b":{"c":1}}"#)
        #expect(try VTLTemplate("$m $m.b.c", name: "j.vtl").render(["m": json]).output == "{a=[1], b={c=1}} 1")
    }

    /// The list borrows its elements through `Unmanaged`'s guaranteed reference (the engine's
    /// one reliance on a stdlib underscore): every element visited, in order, and kept alive by
    /// the list alone.
    @Test func codeListsVisitTheirElementsInOrder() {
        final class Element {
            let number: Int
            init(_ number: Int) { self.number = number }
        }
        let list = VTLCodeList((0..<5).map(Element.init))
        var seen: [Int] = []
        list.forEach { seen.append($0.number) }
        #expect(seen == [0, 1, 2, 3, 4])
        var visited = 0
        #expect(list.contains { visited += 1; return $0.number == 2 })
        #expect(visited == 3)
        #expect(list.with(4) { $0.number } == 4 && list.count == 5)
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
