import DeltaSyncCore
import DeltaSyncVTL
import Foundation
import Testing

/// `$util` functions that read the embedder's ``VTLRuntime`` (identifiers, `authType`, `log`,
/// times), `validate`, `sortList`, and `$extensions`.
struct VTLUtilRuntimeTests {
    /// AppSync's documentation examples are at this instant.
    static let documentedNow = Date(timeIntervalSince1970: 1_517_943_695.750)

    static func rendering(_ text: String, _ runtime: VTLRuntime = VTLRuntime(clock: { documentedNow })) throws -> VTLRendering {
        try VTLTemplate(text, name: "runtime.vtl").render(["ctx": VTLValue(json: ["args": [:]])], runtime: runtime)
    }

    static func render(_ text: String, _ runtime: VTLRuntime = VTLRuntime(clock: { documentedNow })) throws -> String {
        try rendering(text, runtime).output
    }

    @Test func formattedTimesInZones() throws {
        let out = try Self.render("""
            $util.time.nowFormatted("yyyy-MM-dd HH:mm:ssZ")|$util.time.nowFormatted("yyyy-MM-dd HH:mm:ssZ", "+08:00")|\
            $util.time.nowFormatted("yyyy-MM-dd HH:mm:ssZ", "Australia/Perth")|\
            $util.time.epochMilliSecondsToFormatted(1517943695758, "yyyy-MM-dd HH:mm:ssZ", "+08:00")|\
            $util.time.nowFormatted("yyyy-MM-dd[XXX]", "-07:00:30")|$util.time.nowFormatted("yyyy-MM-dd'T'HH:mm:ss[XXXXX]", "-07:00:30")|\
            $util.time.nowFormatted("EEE, d MMM yyyy h:mm a z", "America/New_York")|\
            $util.time.epochMilliSecondsToFormatted(1531000000000, "EEEE d MMMM yy HH:mm:ss.SSS z xxx", "America/New_York")|\
            $util.time.nowFormatted("D 'day''s' X x VV", "UTC")|$util.time.nowEpochSeconds() $util.time.nowEpochMilliSeconds() $util.time.nowISO8601()
            """)
        let parts = out.split(separator: "|").map(String.init)
        #expect(parts[0] == "2018-02-06 19:01:35+0000")
        #expect(parts[1] == "2018-02-07 03:01:35+0800")
        #expect(parts[2] == "2018-02-07 03:01:35+0800")
        #expect(parts[3] == "2018-02-07 03:01:35+0800")
        #expect(parts[4] == "2018-02-06-07:00")
        #expect(parts[5] == "2018-02-06T12:01:05-07:00:30")
        #expect(parts[6] == "Tue, 6 Feb 2018 2:01 PM EST")
        #expect(parts[7] == "Saturday 7 July 18 17:46:40.000 EDT -04:00")
        #expect(parts[8] == "37 day's Z +00 UTC")
        #expect(parts[9] == "1517943695 1517943695750 2018-02-06T19:01:35.750Z")
    }

    @Test func parsingFormattedTimes() throws {
        let out = try Self.render("""
            $util.time.parseFormattedToEpochMilliSeconds("2018-02-02 01:19:22+0800", "yyyy-MM-dd HH:mm:ssZ") \
            $util.time.parseFormattedToEpochMilliSeconds("2018-02-02 01:19:22", "yyyy-MM-dd HH:mm:ss", "+08:00") \
            $util.time.parseISO8601ToEpochMilliSeconds("2018-02-01T17:21:05.180+08:00") \
            $util.time.parseFormattedToEpochMilliSeconds("20180206 07:01:35.750 PM", "yyyyMMdd hh:mm:ss.SSS a", "UTC") \
            $util.time.parseFormattedToEpochMilliSeconds("Feb 6, 2018 14:01 America/New_York", "MMM d, yyyy HH:mm VV") \
            $util.time.parseFormattedToEpochMilliSeconds("2018-07-07T17:46:40", "yyyy-MM-dd'T'HH:mm:ss", "America/New_York")
            """)
        #expect(out == "1517505562000 1517505562000 1517476865180 1517943695750 1517943660000 1531000000000")
        #expect(throws: VTLError.self) { try Self.render(#"$util.time.parseFormattedToEpochMilliSeconds("2018-02-02 01:19:22", "yyyy-MM-dd HH:mm:ss")"#) }
        #expect(throws: VTLError.self) { try Self.render(#"$util.time.parseFormattedToEpochMilliSeconds("2018-02-30 01:19:22Z", "yyyy-MM-dd HH:mm:ssX")"#) }
        #expect(throws: VTLError.self) { try Self.render(#"$util.time.nowFormatted("yyyy", "Mars/Olympus")"#) }
        #expect(throws: VTLError.self) { try Self.render(#"$util.time.nowFormatted("yyyy-qq")"#) }
    }

    @Test func ulidAndKsuidAreTimeOrdered() throws {
        let early = VTLRuntime(clock: { Date(timeIntervalSince1970: 1_700_000_000.001) })
        let late = VTLRuntime(clock: { Date(timeIntervalSince1970: 1_700_000_001.002) })
        let ulids = try [early, late].map { try Self.render("$util.autoUlid()", $0) }
        let ksuids = try [early, late].map { try Self.render("$util.autoKsuid()", $0) }
        for ulid in ulids { #expect(ulid.range(of: "^[0-9A-HJKMNP-TV-Z]{26}$", options: .regularExpression) != nil) }
        for ksuid in ksuids { #expect(ksuid.range(of: "^[0-9A-Za-z]{27}$", options: .regularExpression) != nil) }
        #expect(ulids[0] < ulids[1] && ksuids[0] < ksuids[1])
        // The first ten ULID characters are the milliseconds in base 32.
        let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        let milliseconds = ulids[0].prefix(10).reduce(0) { $0 * 32 + alphabet.firstIndex(of: $1)! }
        #expect(milliseconds == 1_700_000_000_001)
        // A KSUID's first four bytes are the seconds since 1,400,000,000.
        let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        var bytes = [Int](repeating: 0, count: 20)
        for character in ksuids[0] {
            var carry = digits.firstIndex(of: character)!
            for index in bytes.indices.reversed() {
                let value = bytes[index] * 62 + carry
                bytes[index] = value & 0xff
                carry = value >> 8
            }
        }
        #expect(bytes[0..<4].reduce(0) { $0 << 8 | $1 } == 300_000_000)
        #expect(try Self.render("$util.autoUlid()") != Self.render("$util.autoUlid()"))
    }

    @Test func authTypeLogAndValidate() throws {
        final class Sink: @unchecked Sendable {
            let lock = NSLock()
            var lines: [VTLLogLine] = []
        }
        let sink = Sink()
        let runtime = VTLRuntime(authType: VTLRuntime.userPoolAuthorization, log: { line in
            sink.lock.withLock { sink.lines.append(line) }
        })
        let rendering = try Self.rendering("""
            $util.authType()|$util.log.info("created {} for {}", "p1", {"a": 1})$util.log.debug([1, 2])$util.log.error("x {} {}", null)|\
            $util.validate(true, "never")ok
            """, runtime)
        #expect(rendering.output == "User Pool Authorization||ok")
        let expected = [
            VTLLogLine(level: .info, message: "created p1 for {a=1}"), VTLLogLine(level: .debug, message: "[1, 2]"),
            VTLLogLine(level: .error, message: "x null {}"),
        ]
        #expect(rendering.logLines == expected)
        #expect(sink.lock.withLock { sink.lines } == expected)
        #expect(try Self.render("$util.authType()") == "$util.authType()", "no auth type: null, printed as written")
        do {
            _ = try Self.render(#"$util.validate(1 > 2, "Too small", null, {"min": 2})"#)
            Issue.record("validate(false, ...) must throw")
        } catch let raised as VTLRaisedError {
            #expect(raised.message == "Too small" && raised.errorType == "CustomTemplateException" && raised.data.json == ["min": 2])
        }
        #expect {
            try Self.render(#"$util.validate(false, "Bad", "MyType")"#)
        } throws: { ($0 as? VTLRaisedError)?.errorType == "MyType" }
        #expect { try Self.render("$util.unauthorized()") } throws: { ($0 as? VTLRaisedError)?.errorType == "Unauthorized" }
    }

    @Test func listSortAndMathRounding() throws {
        let out = try Self.render("""
            $util.toJson($util.list.sortList([{"description":"youngest", "age":5},{"description":"middle", "age":45}, {"description":"oldest", "age":85}], false, "description"))|\
            $util.list.sortList([3, 1.5, 2], true, "any")|$util.list.sortList(["b", "a", 1], false, "x")|$util.list.sortList(["b", "C", "a"], false, "")|\
            $util.math.roundNum(2.5) $util.math.roundNum(-2.5) $util.math.roundNum(-2.6)
            """)
        #expect(out == #"[{"age":45,"description":"middle"},{"age":85,"description":"oldest"},{"age":5,"description":"youngest"}]|[3, 2, 1.5]|[b, a, 1]|[C, a, b]|3 -2 -3"#)
    }

    @Test func extensionsAreRecordedAndPrintNothing() throws {
        let rendering = try Self.rendering("""
            #set($filter = $util.transform.toSubscriptionFilter({"owner": {"eq": "ada"}}))
            $extensions.setSubscriptionFilter($filter)$util.qr($filter.put("changed", true))\
            $extensions.setSubscriptionInvalidationFilter({"filterGroup": []})\
            $extensions.invalidateSubscriptions({"subscriptionField": "onDelete", "payload": {"id": "p1"}})\
            $extensions.evictFromApiCache("Query", "getPost", {"context.arguments.id": "p1"})done
            """)
        #expect(rendering.output == "done")
        #expect(rendering.extensions.count == 4)
        guard case .setSubscriptionFilter(let filter) = rendering.extensions[0] else {
            Issue.record("\(rendering.extensions)")
            return
        }
        #expect(filter.json == ["filterGroup": [["filters": [["fieldName": "owner", "operator": "eq", "value": "ada"]]]]], "a copy at the call")
        guard case .invalidateSubscriptions(let field, let payload) = rendering.extensions[2] else {
            Issue.record("\(rendering.extensions)")
            return
        }
        #expect(field == "onDelete" && payload.json == ["id": "p1"])
        guard case .evictFromApiCache(let type, let name, let keys) = rendering.extensions[3] else {
            Issue.record("\(rendering.extensions)")
            return
        }
        #expect(type == "Query" && name == "getPost" && keys.json == ["context.arguments.id": "p1"])
        #expect(throws: VTLError.self) { try Self.render("$extensions.invalidateSubscriptions({})") }
        #expect(throws: VTLError.self) { try Self.render("$extensions.nothing()") }
    }
}
