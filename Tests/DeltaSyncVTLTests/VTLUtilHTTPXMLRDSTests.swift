import DeltaSyncCore
import DeltaSyncVTL
import Testing

/// `$util.http`, `$util.xml` and `$util.rds` against the outputs AppSync documents.
struct VTLUtilHTTPXMLRDSTests {
    static func rendering(_ text: String, _ context: JSONValue = ["args": [:]]) throws -> VTLRendering {
        let value = VTLValue(json: context)
        return try VTLTemplate(text, name: "helpers.vtl").render(["ctx": value, "context": value])
    }

    // MARK: - $util.http

    @Test func copyHeadersLeavesOutTheRestrictedOnes() throws {
        let headers: JSONValue = [
            "accept": "application/json", "Host": "example.com", "content-length": "12", "connection": "keep-alive",
            "x-custom": ["one", "two"], "TE": "trailers", "authorization": "Bearer t",
        ]
        let out = try VTLEngineTests.render("$util.toJson($util.http.copyHeaders($ctx.request.headers))", ["request": ["headers": headers]])
        #expect(try JSONValue(parsing: out) == ["accept": "application/json", "x-custom": ["one", "two"], "authorization": "Bearer t"])
        #expect(throws: VTLError.self) { try VTLEngineTests.render(#"$util.http.copyHeaders("accept")"#) }
    }

    /// AppSync's two documented examples, printed without `$util.qr` as the page writes them.
    @Test func responseHeadersAreRecordedForTheHost() throws {
        let rendering = try Self.rendering("""
            $util.http.addResponseHeader("itemsCount", 7)$util.http.addResponseHeader("render", $ctx.args.render)\
            #set($headersMap = {})
            $util.qr($headersMap.put("headerInt", 12))
            $util.qr($headersMap.put("headerString", "stringValue"))
            $util.qr($headersMap.put("headerObject", {"field1": 7, "field2": "string"}))
            $util.http.addResponseHeaders($headersMap)
            """, ["args": ["render": "full"]])
        #expect(rendering.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(rendering.appendedErrors.isEmpty)
        #expect(rendering.responseHeaders == [
            VTLResponseHeader(name: "itemsCount", value: "7"), VTLResponseHeader(name: "render", value: "full"),
            VTLResponseHeader(name: "headerInt", value: "12"), VTLResponseHeader(name: "headerString", value: "stringValue"),
            VTLResponseHeader(name: "headerObject", value: #"{"field1":7,"field2":"string"}"#),
        ])
    }

    @Test func refusedResponseHeadersAreResponseHeaderErrors() throws {
        let rendering = try Self.rendering("""
            $util.http.addResponseHeader("Content-Type", "text/plain")$util.http.addResponseHeader("host", "h")\
            $util.http.addResponseHeader("X-Amz-Date", "now")$util.http.addResponseHeader("x-amzn-trace", "t")\
            $util.http.addResponseHeader("", "v")$util.http.addResponseHeader("empty", $ctx.args.nothing)\
            $util.http.addResponseHeader("a", "1")$util.http.addResponseHeader("A", "2")ok
            """)
        #expect(rendering.output == "ok")
        #expect(rendering.responseHeaders == [VTLResponseHeader(name: "a", value: "2")], "the latest definition, names ignoring case")
        #expect(rendering.appendedErrors.count == 6)
        #expect(rendering.appendedErrors.allSatisfy { $0.errorType == "ResponseHeaderError" })
        #expect(rendering.appendedErrors[0].message.contains("Content-Type"))
    }

    @Test func responseHeadersTakeFourKilobytesInAll() throws {
        let big = String(repeating: "x", count: 3000)
        let rendering = try Self.rendering(#"$util.http.addResponseHeader("first", "\#(big)")$util.http.addResponseHeader("second", "\#(big)")"#)
        #expect(rendering.responseHeaders.map(\.name) == ["first"])
        #expect(rendering.appendedErrors.map(\.errorType) == ["ResponseHeaderError"])
    }

    // MARK: - $util.xml

    static let onePost = """
        <?xml version="1.0" encoding="UTF-8"?>
        <posts>
        <post>
          <id>1</id>
          <title>Getting started with GraphQL</title>
        </post>
        </posts>
        """

    static let twoPosts = """
        <?xml version="1.0" encoding="UTF-8"?>
        <posts>
        <post>
          <id>1</id>
          <title>Getting started with GraphQL</title>
        </post>
        <post>
          <id>2</id>
          <title>Getting started with AWS AppSync</title>
        </post>
        </posts>
        """

    @Test func xmlAsAMapAndAsJSONAsDocumented() throws {
        let context: JSONValue = ["body": .string(Self.onePost), "two": .string(Self.twoPosts)]
        let one = try VTLEngineTests.render("$util.toJson($util.xml.toMap($ctx.body))", context)
        #expect(try JSONValue(parsing: one) == ["posts": ["post": ["id": 1, "title": "Getting started with GraphQL"]]])
        let two = try VTLEngineTests.render("$util.xml.toJsonString($ctx.two)", context)
        #expect(try JSONValue(parsing: two) == ["posts": ["post": [
            ["id": 1, "title": "Getting started with GraphQL"], ["id": 2, "title": "Getting started with AWS AppSync"],
        ]]])
        let map = try VTLEngineTests.render("#set($m = $util.xml.toMap($ctx.two))$m.posts.post[1].id $m.posts.post.size()", context)
        #expect(map == "2 2")
        // `true`: the JSON text written again as a JSON string.
        let encoded = try VTLEngineTests.render("$util.xml.toJsonString($ctx.body, true)", context)
        #expect(try JSONValue(parsing: encoded) == .string(one))
    }

    @Test func xmlTextAttributesAndMarkup() throws {
        let xml = """
            <!DOCTYPE r [<!ELEMENT r ANY>]><!-- a comment --><r kind="x">
              <n>-2.5e3</n><zip>007</zip><flag>TRUE</flag><none>null</none><empty/><blank>  </blank>
              <text>a &lt;b&gt; &amp; &#65;&#x42; &quot;c&apos;</text><raw><![CDATA[1 < 2]]></raw>
              <mixed>before<i>1</i>after</mixed><é>ü</é>
            </r>
            """
        let out = try VTLEngineTests.render("$util.xml.toJsonString($ctx.xml)", ["xml": .string(xml)])
        #expect(try JSONValue(parsing: out) == ["r": [
            "n": -2500, "zip": "007", "flag": true, "none": nil, "empty": "", "blank": "",
            "text": #"a <b> & AB "c'"#, "raw": "1 < 2", "mixed": ["i": 1, "content": ["before", "after"]], "é": "ü",
        ]])
        // The number is a decimal, as Java's `Double` prints it.
        #expect(try VTLEngineTests.render("$util.xml.toMap($ctx.xml).r.n", ["xml": .string(xml)]) == "-2500.0")
    }

    @Test func malformedXMLIsATemplateErrorWithItsPlace() {
        func message(_ xml: String) -> String? {
            do {
                _ = try VTLEngineTests.render("$util.xml.toMap($ctx.xml)", ["xml": .string(xml)])
                return nil
            } catch let error as VTLError {
                return error.message
            } catch {
                return nil
            }
        }
        #expect(message("<a>\n  <b>1</c>\n</a>") == "$util.xml.toMap: the XML is malformed at line 2, column 7: </c> closes <b>")
        #expect(message("<a><b>1</b>") == "$util.xml.toMap: the XML is malformed at line 1, column 1: <a> is never closed")
        #expect(message("<a/><b/>")?.contains("text after the root element <a>") == true)
        #expect(message("just text")?.contains("no root element") == true)
        #expect(message("<a>1 & 2</a>")?.contains("'&' starts no entity") == true)
        #expect(message("<a x=1/>")?.contains("quoted value") == true)
        #expect(message(String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300))?.contains("deeper than 256") == true)
        #expect(throws: VTLError.self) { try VTLEngineTests.render("$util.xml.toMap(1)") }
    }

    // MARK: - $util.rds

    /// The page's `select * from Books limit 2`, then an `INSERT` in the same batch.
    static let books: JSONValue = ["sqlStatementResults": [
        [
            "numberOfRecordsUpdated": 0,
            "records": [
                [["stringValue": "Mark Twain"], ["stringValue": "Adventures of Huckleberry Finn"], ["stringValue": "978-1948132817"]],
                [["stringValue": "Jack London"], ["stringValue": "The Call of the Wild"], ["stringValue": "978-1948132275"]],
            ],
            "columnMetadata": [
                ["label": "author", "typeName": "VARCHAR", "tableName": "Books", "type": 12, "name": "author"],
                ["label": "title", "typeName": "VARCHAR", "tableName": "Books", "type": 12, "name": "title"],
                ["label": "ISBN-13", "typeName": "VARCHAR", "tableName": "Books", "type": 12, "name": "ISBN-13"],
            ],
        ],
        ["numberOfRecordsUpdated": 1, "generatedFields": []],
    ]]

    @Test func rdsResultsAsRecordsOfColumnNames() throws {
        let context: JSONValue = ["result": .string(Self.books.jsonText)]
        let out = try VTLEngineTests.render("$util.rds.toJsonString($ctx.result)", context)
        #expect(try JSONValue(parsing: out) == [
            [
                ["author": "Mark Twain", "title": "Adventures of Huckleberry Finn", "ISBN-13": "978-1948132817"],
                ["author": "Jack London", "title": "The Call of the Wild", "ISBN-13": "978-1948132275"],
            ],
            [],
        ])
        let object = "#set($rows = $util.rds.toJsonObject($ctx.result))$rows[0][1].title|$rows[0][0]|$rows[1].size()"
        #expect(try VTLEngineTests.render(object, context) == "The Call of the Wild|{author=Mark Twain, title=Adventures of Huckleberry Finn, ISBN-13=978-1948132817}|0")
    }

    @Test func rdsFieldsOfEveryType() throws {
        let result: JSONValue = ["sqlStatementResults": [[
            "records": [[
                ["longValue": 42], ["doubleValue": 2.5], ["booleanValue": true], ["isNull": true], ["blobValue": "AAE="],
                ["arrayValue": ["stringValues": ["a", "b"]]],
            ]],
            "columnMetadata": [["name": "n"], ["name": "d"], ["name": "b"], ["name": "x"], ["name": "blob"], ["name": "tags"]],
        ]]]
        let out = try VTLEngineTests.render("$util.rds.toJsonString($ctx.result)", ["result": result])
        #expect(try JSONValue(parsing: out) == [[["n": 42, "d": 2.5, "b": true, "x": nil, "blob": "AAE=", "tags": ["a", "b"]]]])
        #expect(try VTLEngineTests.render("$util.rds.toJsonString('{}')") == "[]")
        #expect(throws: VTLError.self) { try VTLEngineTests.render("$util.rds.toJsonObject('not json')") }
    }
}
