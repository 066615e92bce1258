// JSON text (issue #42): a sync page of 1,000 posts read into `JSONValue`s, and scanned for
// where its values lie (what a client stores a page from), beside Foundation's
// `JSONSerialization` reading the same bytes in the same run; and a mutation request as the
// server reads one. Rounds alternate the three; each figure is the median of its rounds.
//
//   swift run -c release JSONBenchmark [rounds]   (15 unless told)
import BenchmarkSupport
import DeltaSyncCore
import Foundation

let rounds = BenchmarkSupport.numberArguments.first ?? 15

/// A page as the server writes one: the posts of `ColdSyncBenchmark`, 17 fields and metadata.
func page() -> [UInt8] {
    let items = (0..<1000).map { n in
        #"{"id":"\#(UUID().uuidString.lowercased())","blogID":"blog-\#(n % 100)","title":"Post number \#(n)","body":"A short body for post \#(n).","status":"PUBLISHED","rating":\#(n % 5),"views":null,"featured":null,"tags":["swift","tag\#(n % 7)"],"location":null,"metadata":null,"publishedAt":"2026-01-01T00:00:00.000Z","publishDay":null,"readingTime":null,"expiresAt":null,"authorPhone":null,"authorIp":null,"createdAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-01T00:00:00.000Z","_version":1,"_deleted":null,"_lastChangedAt":1700000000000,"__typename":"Post"}"#
    }
    return Array((#"{"data":{"syncPosts":{"items":["# + items.joined(separator: ",") + #"],"nextToken":"abc","startedAt":1700000000000}}}"#).utf8)
}
let pageBytes = page()
let request = Array(
    #"{"query":"mutation Create($input: CreatePostInput!) { createPost(input: $input) { id title _version } }","variables":{"input":{"id":"p1","blogID":"b1","title":"Hello \"world\"","status":"DRAFT","tags":["a","b"],"rating":3}}}"#.utf8)

/// Microseconds per run of `body`, `count` runs.
func microseconds(_ count: Int, _ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    for _ in 0..<count { try body() }
    return BenchmarkReport.milliseconds(ContinuousClock.now - start) * 1000 / Double(count)
}

var figures: [String: [Double]] = [:]
for _ in 0..<rounds {
    let data = Data(pageBytes)
    figures["page, JSONSerialization", default: []].append(try microseconds(5) { _ = try JSONSerialization.jsonObject(with: data) })
    figures["page, JSONValue", default: []].append(
        try microseconds(5) { _ = try pageBytes.withUnsafeBufferPointer { try JSONValue(parsingUTF8: $0) } })
    figures["page, JSONScanner", default: []].append(
        try microseconds(5) {
            try pageBytes.withUnsafeBufferPointer { bytes in
                var scanner = JSONScanner(bytes)
                _ = try scanner.value()
                try scanner.end()
            }
        })
    let small = Data(request)
    figures["request, JSONSerialization", default: []].append(try microseconds(2000) { _ = try JSONSerialization.jsonObject(with: small) })
    figures["request, JSONValue", default: []].append(
        try microseconds(2000) { _ = try request.withUnsafeBufferPointer { try JSONValue(parsingUTF8: $0) } })
}
let medians = figures.mapValues(BenchmarkReport.median)
func median(_ name: String) -> Double { medians[name]! }

BenchmarkReport.say("JSON text, median of \(rounds) alternating rounds")
BenchmarkReport.say("1. a sync page of 1,000 posts (\(pageBytes.count) bytes)")
for name in ["page, JSONSerialization", "page, JSONValue", "page, JSONScanner"] {
    let us = median(name)
    BenchmarkReport.row("   \(name.dropFirst(6))\(name.hasSuffix("Serialization") ? " (baseline)" : "")",
        String(format: "%9.0f µs  %6.0f MB/s  %5.2fx the baseline", us, Double(pageBytes.count) / us, us / median("page, JSONSerialization")))
}
BenchmarkReport.say("2. a createPost request (\(request.count) bytes)")
for name in ["request, JSONSerialization", "request, JSONValue"] {
    let us = median(name)
    BenchmarkReport.row("   \(name.dropFirst(9))\(name.hasSuffix("Serialization") ? " (baseline)" : "")",
        String(format: "%9.2f µs  %5.2fx the baseline", us, us / median("request, JSONSerialization")))
}
