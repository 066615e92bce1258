import Foundation
import NIOConcurrencyHelpers

/// Where the worker's files live while a server runs: the runtime's own (``JSRuntimeFiles``,
/// written once, when the first handler runs) and one file per code text, named by its digest.
/// The folder's name carries a digest of the runtime's files, so servers of different versions
/// never share one and servers of the same version may.
final class JSRuntimeFolder: Sendable {
    let url: URL
    /// Digests of the code files written, and whether the runtime's files are.
    private let written = NIOLockedValueBox((runtime: false, code: Set<String>()))

    init(parent: URL) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for (name, text) in JSRuntimeFiles.files {
            for byte in name.utf8 + [0] + text.utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        url = parent.appendingPathComponent("deltasync-appsync-js-" + String(hash, radix: 16))
    }

    /// `worker.mjs`'s path.
    var worker: String { url.appendingPathComponent("worker.mjs").path }

    /// The file of `code`, written if this server has not yet written it.
    ///
    /// - Throws: the file system's error, when the folder cannot be written.
    func file(of code: JSCode) throws -> String {
        let path = url.appendingPathComponent("code").appendingPathComponent(code.digest + ".mjs").path
        let (runtimeMissing, codeMissing) = written.withLockedValue { ($0.runtime == false, !$0.code.contains(code.digest)) }
        if runtimeMissing {
            for (name, text) in JSRuntimeFiles.files { try write(text, to: url.appendingPathComponent(name).path) }
            written.withLockedValue { $0.runtime = true }
        }
        if codeMissing {
            try write(code.text, to: path)
            _ = written.withLockedValue { $0.code.insert(code.digest) }
        }
        return path
    }

    /// Writes atomically unless the file already holds `text`, so a worker never reads half a
    /// file and servers sharing the folder never see each other's writes in progress.
    private func write(_ text: String, to path: String) throws {
        let contents = Data(text.utf8)
        if FileManager.default.contents(atPath: path) == contents { return }
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try contents.write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
