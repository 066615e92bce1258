import DeltaSyncCore
import DeltaSyncVTL
import Testing

/// `#define`, `#macro` and `#noescape` with Velocity 1.7's rules.
struct VTLBlockTests {
    @Test func defineRendersWithTheVariablesOfWhenItIsReferenced() throws {
        let template = """
            #set($who = "Ada")
            #define($hello)Hello, $who!#end
            #set($who = "Bob")
            $hello #foreach($who in ["Cy", "Di"])$hello #end
            """
        let out = try VTLEngineTests.render(template)
        // `#end` follows text on its line, so the line break after it stays.
        #expect(out == "\nHello, Bob! Hello, Cy! Hello, Di! ")
        #expect(try VTLEngineTests.render("#define($b)x#end#set($b = 1)$b #define($b)y#end$b") == "1 y")
    }

    @Test func macrosTakeArgumentsByNameAndMayBeCalledBeforeTheirDefinition() throws {
        let template = """
            #greet("Ada" "Hi") #greet("Bob", "Hello") #greet("Cy")
            #macro(greet $name $greeting)
            $greeting, $name!#end
            """
        // A missing argument leaves its parameter unbound: it prints as written.
        #expect(try VTLEngineTests.render(template) == "Hi, Ada! Hello, Bob! $greeting, Cy!\n")
        // By name: each reference of $v evaluates the argument again.
        let byName = "#macro(twice $v)$v$v#end#set($l = [])#twice($util.qr($l.add(1)))$l.size()"
        #expect(try VTLEngineTests.render(byName) == "2")
        // A #set inside a macro sets the template's variable (Velocity 1.7's global scope).
        #expect(try VTLEngineTests.render("#macro(setIt)#set($g = 5)#end#setIt()$g") == "5")
        #expect(try VTLEngineTests.render("#macro(item $x)<$x.name>#end#foreach($i in $ctx.list)#item($i)#end", ["list": [["name": "a"], ["name": "b"]]]) == "<a><b>")
    }

    @Test func macrosAndBlocksSeeTheLoopScopeOfTheLoopTheyRunIn() throws {
        #expect(try VTLEngineTests.render("#macro(at)$foreach.index/$velocityCount #end#foreach($i in [1, 2])#at()#end") == "0/1 1/2 ")
        #expect(try VTLEngineTests.render("#define($at)$foreach.count#end#foreach($i in [1, 2])$at#end") == "12")
        // Outside a loop there is no scope: the reference prints as written.
        #expect(try VTLEngineTests.render("#foreach($i in [1])#end$foreach.count") == "$foreach.count")
    }

    @Test func macrosRecurseWithinTheDepthLimit() throws {
        #expect(try VTLEngineTests.render("#macro(count $n)$n#if($n > 0)#count($n - 1)#end#end#count(5)") == "543210")
        #expect {
            try VTLEngineTests.render("#macro(forever $n)#forever($n)#end#forever(1)")
        } throws: { error in
            (error as? VTLError)?.message.contains("nests deeper than") == true
        }
    }

    @Test func anUndefinedMacroPrintsItsCallAsWritten() throws {
        #expect(try VTLEngineTests.render("#nope($x, 1) and #nope and #nope(not an expression ,,)") == "#nope($x, 1) and #nope and #nope(not an expression ,,)")
        #expect(try VTLEngineTests.render(#"{"expression": "attribute_exists(#id)"}"#) == #"{"expression": "attribute_exists(#id)"}"#)
    }

    @Test func noescapeAndRawText() throws {
        let out = try VTLEngineTests.render("#noescape()a$ctx.x#end|#noescape b#end", ["x": 1])
        // Without parentheses the body starts right after the name, blank included.
        #expect(out == "a1| b")
        #expect(try VTLEngineTests.render("#[[#macro(x)$y#end]]#") == "#macro(x)$y#end")
    }

    @Test func blockErrorsNameWhereTheyAre() {
        #expect(throws: VTLError.self) { try VTLTemplate("#define(x)a#end", name: "d.vtl") }
        #expect(throws: VTLError.self) { try VTLTemplate("#macro($x)a#end", name: "m.vtl") }
        #expect(throws: VTLError.self) { try VTLTemplate("#macro(m $a)never closed", name: "m.vtl") }
    }
}
