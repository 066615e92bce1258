import DeltaSyncCore
import DeltaSyncVTL
import Testing

/// The Velocity engine as AppSync's templates use it: directives, references, literals,
/// operators, Java methods, `$util`'s first functions, whitespace, limits and errors.
struct VTLEngineTests {
    /// Renders `text` with `$ctx`/`$context` from `context`.
    static func render(_ text: String, _ context: JSONValue = [:], limits: VTLLimits = VTLLimits()) throws -> String {
        let value = VTLValue(json: context)
        return try VTLTemplate(text, name: "test.vtl").render(["ctx": value, "context": value], limits: limits).output
    }

    @Test func referencesPrintTheirValueOrTheirOwnText() throws {
        let context: JSONValue = ["args": ["id": "p1", "n": 3, "tags": ["a", "b"], "input": ["title": "T"]]]
        #expect(try Self.render("id=$ctx.args.id n=${ctx.args.n}!", context) == "id=p1 n=3!")
        #expect(try Self.render("$ctx.args.missing|$!ctx.args.missing|$!{ctx.args.missing}|", context) == "$ctx.args.missing|||")
        #expect(try Self.render("$ctx.args.tags[1] $ctx.args.input[\"title\"] $context.args.input.title", context) == "b T T")
        #expect(try Self.render("$ctx.args.tags $ctx.args.input", context) == "[a, b] {title=T}")
        #expect(try Self.render("cost: $5 and # alone, $ctx.args.id.", context) == "cost: $5 and # alone, p1.")
    }

    @Test func setIfElseAndLoops() throws {
        let template = """
            #set($total = 0)
            #foreach($item in $ctx.args.items)
              #if($item.price > 10)
            big:${item.name}($foreach.count/$foreach.index)#if($foreach.hasNext),#end
              #elseif($item.price == 10)
            ten:$item.name#if($foreach.hasNext),#end
              #else
            small:$item.name#if($foreach.hasNext),#end
              #end
              #set($total = $total + $item.price)
            #end
            total=$total
            """
        let context: JSONValue = ["args": ["items": [["name": "a", "price": 12], ["name": "b", "price": 10], ["name": "c", "price": 1]]]]
        #expect(try Self.render(template, context) == "big:a(1/0),\nten:b,\nsmall:c\ntotal=23")
    }

    @Test func theLoopScopesGettersAreAlsoMethods() throws {
        #expect(try Self.render("#foreach($i in [1, 2, 3])$i#if($foreach.hasNext()),#end#end") == "1,2,3")
        #expect(try Self.render("#foreach($i in ['a', 'b'])$foreach.index()$foreach.count()#end") == "0112")
    }

    @Test func breakReturnAndStop() throws {
        #expect(try Self.render("#foreach($i in [1..10])$i#if($i == 3)#break#end#end") == "123")
        let returned = try VTLTemplate("before #return({\"a\": 1}) after", name: "r.vtl").render([:])
        #expect(returned.output == "before ")
        #expect(returned.returned??.json == ["a": 1])
        let bare = try VTLTemplate("#return\nafter", name: "r.vtl").render([:])
        #expect(bare.returned != nil && bare.returned! == nil)
        #expect(try Self.render("a#stop b") == "a")
        #expect(try Self.render("#foreach($i in [3..1])$i#end") == "321")
    }

    @Test func literalsAndOperators() throws {
        #expect(try Self.render("#set($m = {\"k\": [1, 2.5, true, null], 'q': 'x'})$util.toJson($m)") == #"{"k":[1,2.5,true,null],"q":"x"}"#)
        #expect(try Self.render("${1 + 2}") == "${1 + 2}", "no expressions in references")
        #expect(try Self.render("#set($a = 7 / 2)#set($b = 7.0 / 2)#set($c = 7 % 3)#set($d = -3 + 1)$a $b $c $d") == "3 3.5 1 -2")
        #expect(try Self.render("#set($z = 1 / 0)$!z|") == "|", "division by zero is null")
        #expect(try Self.render("#set($s = \"n=\" + 1)$s") == "n=1")
        #expect(try Self.render("#if(0 && \"\")yes#end #if(!false and not null)yes#end #if(1 == 1.0 && \"a\" != \"b\")yes#end") == "yes yes yes")
        #expect(try Self.render("#if(2 gt 1 && 1 le 1 && 1 lt 2 && 2 ge 2 && 1 eq 1 && 1 ne 2)yes#end") == "yes")
        let id = "p1"
        #expect(try Self.render("#set($key = \"id-$ctx.args.id\")$key '$ctx.args.id'", ["args": ["id": .string(id)]]) == "id-p1 'p1'")
    }

    @Test func javaMethodsMutateSharedValues() throws {
        let template = """
            #set($map = {})
            #set($alias = $map)
            $util.qr($alias.put("a", 1))
            $util.qr($map.putAll({"b": 2}))
            #set($map.c = 3)
            #set($list = [])
            $util.qr($list.add("x"))$util.qr($list.addAll(["y", "z"]))
            $map.size() $map.keySet() $map.containsKey("b") $map.get("c") $map.remove("a") $map
            $list.size() $list.get(2) $list.contains("y") $list.indexOf("z") $list.isEmpty() $list.empty
            #foreach($e in $map.entrySet())$e.key=$e.value;#end
            """
        #expect(try Self.render(template) == "\n\n\n3 [a, b, c] true 3 1 {b=2, c=3}\n3 z true 2 false false\nb=2;c=3;")
        let strings = "$s.length() $s.toUpperCase() $s.substring(1, 3) $s.indexOf(\"l\") $s.replace(\"l\", \"L\") $s.replaceAll(\"[aeiou]\", \"_\") $s.split(\",\") $s.startsWith(\"he\") $s.matches(\"h.*\") $s.trim().isEmpty()"
        #expect(try Self.render(strings, ["args": [:]]).isEmpty == false)
        let value = VTLValue.string("hello,world")
        let out = try VTLTemplate(strings, name: "s.vtl").render(["s": value]).output
        #expect(out == "11 HELLO,WORLD el 2 heLLo,worLd h_ll_,w_rld [hello, world] true true false")
    }

    @Test func utilFunctions() throws {
        let context: JSONValue = ["args": ["input": ["title": "T", "empty": "", "blank": "  "], "list": []]]
        let template = """
            $util.isNull($ctx.args.nothing) $util.isNullOrEmpty($ctx.args.input.empty) $util.isNullOrBlank($ctx.args.input.blank) \
            $util.isNullOrEmpty($ctx.args.list) $util.defaultIfNull($ctx.args.nothing, "d") $util.defaultIfNullOrBlank($ctx.args.input.blank, "b") \
            $util.typeOf($ctx.args.input) $util.typeOf(1) $util.isString("x") $util.isList([]) $util.matches("^T", $ctx.args.input.title) \
            $util.parseJson("{\\"a\\": [1]}").a[0] $util.toJson($ctx.args.input.title)$util.qr(1)$util.quiet(2)
            """
        #expect(try Self.render(template, context) == #"true true true true d b Map Number true true true 1 "T""#)
        #expect(try Self.render("$util.autoId()").count == 36)
        do {
            _ = try Self.render(#"$util.error("Bad input", "ValidationError", {"id": 1})"#)
            Issue.record("$util.error must throw")
        } catch let raised as VTLRaisedError {
            #expect(raised.message == "Bad input" && raised.errorType == "ValidationError" && raised.data.json == ["id": 1])
        }
        let appended = try VTLTemplate(#"$util.appendError("one")ok"#, name: "a.vtl").render([:])
        #expect(appended.output == "ok" && appended.appendedErrors.map(\.message) == ["one"])
    }

    @Test func commentsAndRawText() throws {
        #expect(try Self.render("a## a comment\nb#* a\nblock *#c#[[$not #set]]#") == "abc$not #set")
    }

    @Test func errorsNameTheTemplateLineAndColumn() {
        func failure(_ text: String) -> VTLError? {
            do {
                _ = try VTLTemplate(text, name: "Mutation.createPost.req.vtl").render(["ctx": VTLValue(json: ["args": [:]])])
                return nil
            } catch let error as VTLError {
                return error
            } catch {
                return nil
            }
        }
        let unclosed = failure("{\n  #if($ctx.args.id)\n  x\n}")
        #expect(unclosed?.message.contains("#end missing") == true)
        #expect(unclosed?.template == "Mutation.createPost.req.vtl")
        let stray = failure("a\n  #end")
        #expect(stray?.position == VTLPosition(line: 2, column: 3))
        let method = failure("line1\n$ctx.args.put(1)")
        #expect(method?.message.contains("no method put taking 1 argument") == true)
        #expect(method?.position?.line == 2)
        #expect(failure("#set($x = )")?.message.contains("unexpected ')'") == true)
        #expect(failure("$util.nope()")?.message.contains("$util.nope") == true)
        #expect(failure("#if(\"a\" < 1)#end")?.message.contains("cannot compare") == true)
    }

    @Test func hostileTemplatesAreStopped() {
        var limits = VTLLimits()
        limits.steps = 50_000
        #expect(throws: VTLError.self) { try Self.render("#foreach($i in [1..1001])#end") }
        #expect(throws: VTLError.self) {
            try Self.render("#foreach($a in [1..1000])#foreach($b in [1..1000])x#end#end", limits: limits)
        }
        var small = VTLLimits()
        small.outputBytes = 100
        #expect(throws: VTLError.self) { try Self.render("#foreach($a in [1..200])xx#end", limits: small) }
        #expect(throws: VTLError.self) {
            try Self.render("#set($l = [])#foreach($a in [1..1000])#foreach($b in [1..1000])$util.qr($l.add($b))#end#end")
        }
    }

    @Test func directivesAloneOnTheirLineTakeTheLine() throws {
        let template = """
            {
              #if($ctx.args.id)
              "id": "$ctx.args.id",
              #end
              "ok": true
            }
            """
        #expect(try Self.render(template, ["args": ["id": "p1"]]) == "{\n  \"id\": \"p1\",\n  \"ok\": true\n}")
        #expect(try Self.render(template, ["args": [:]]) == "{\n  \"ok\": true\n}")
    }

    @Test func setWithANullValueKeepsTheOldOne() throws {
        #expect(try Self.render("#set($x = 1)#set($x = $ctx.args.none)$x", ["args": [:]]) == "1", "Velocity 1.7")
    }
}

/// `$util`'s encoding functions and its `str`, `math`, `list`, `map` and `time` families.
struct VTLUtilFamilyTests {
    @Test func encodingAndStrings() throws {
        let out = try VTLEngineTests.render("""
            $util.urlEncode("a b&c/é") $util.urlDecode("a+b%26c") $util.base64Encode("hi") $util.base64Decode("aGk=") \
            $util.escapeJavaScript("say \\"hi\\"\n") $util.str.toUpper("ab") $util.str.toReplace("aXa", "X", "-") \
            $util.str.normalize("e\u{301}", "nfc").length()
            """)
        #expect(out == #"a+b%26c%2F%C3%A9 a b&c aGk= hi say \"hi\"\n AB a-a 1"#)
    }

    @Test func mathListsMapsAndTime() throws {
        let out = try VTLEngineTests.render("""
            $util.math.roundNum(2.5) $util.math.minVal(1, 2.5) $util.math.maxVal(1, 2.5) \
            $util.list.copyAndRetainAll([1, 2, 3], [2, 3, 4]) $util.list.copyAndRemoveAll([1, 2, 3], [2]) \
            $util.map.copyAndRetainAllKeys({"a": 1, "b": 2}, ["b"]) $util.map.copyAndRemoveAllKeys({"a": 1, "b": 2}, ["b"]) \
            $util.time.epochMilliSecondsToISO8601(1700000000123) $util.time.parseISO8601ToEpochMilliSeconds("2023-11-14T22:13:20.123Z") \
            $util.time.epochMilliSecondsToSeconds(1700000000123)
            """)
        #expect(out == "3 1.0 2.5 [2, 3] [1, 3] {b=2} {a=1} 2023-11-14T22:13:20.123Z 1700000000123 1700000000")
        let now = try VTLEngineTests.render("$util.time.nowISO8601() $util.time.nowEpochMilliSeconds()")
        #expect(now.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \d{13}$"#, options: .regularExpression) != nil)
        let range = try VTLEngineTests.render("#set($n = $util.math.randomWithinRange(3, 5))#if($n >= 3 && $n <= 5)in#end")
        #expect(range == "in")
    }
}
