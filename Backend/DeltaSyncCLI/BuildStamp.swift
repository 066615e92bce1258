/// What `deltasync --version` prints: the release's version, the commit it was built from and the
/// build date.
///
/// SwiftPM has no way to hand a string to the compiler, so the release script writes them into the
/// built binary instead: `scripts/stamp-build.py` finds ``placeholder``'s bytes (the marker, then
/// spaces) and overwrites the spaces with `VERSION COMMIT DATE`, keeping the length. A binary
/// nobody stamped (`swift build`, `swift run`) says it was built from source.
struct BuildStamp: Equatable {
    var version: String
    var commit: String
    var date: String

    /// The marker and the room after it. The marker is also the stamp script's only way to find
    /// the bytes, so it must stay unique in the binary and keep its spelling.
    static let placeholder: StaticString = "@@deltasync-build-stamp@@                                                                                                                                "
    static let marker = "@@deltasync-build-stamp@@"

    /// The stamp in this binary, or nil when nobody stamped it.
    static var current: BuildStamp? {
        let bytes = UnsafeBufferPointer(start: placeholder.utf8Start, count: placeholder.utf8CodeUnitCount)
        return BuildStamp(stamped: String(decoding: bytes, as: UTF8.self))
    }

    /// Reads `MARKER VERSION COMMIT DATE` padded with spaces; nil for the blank placeholder or
    /// anything else.
    init?(stamped text: String) {
        guard text.hasPrefix(Self.marker) else { return nil }
        let fields = text.dropFirst(Self.marker.count).split(separator: " ")
        guard fields.count == 3 else { return nil }
        self.init(version: String(fields[0]), commit: String(fields[1]), date: String(fields[2]))
    }

    init(version: String, commit: String, date: String) {
        self.version = version
        self.commit = commit
        self.date = date
    }

    /// `deltasync --version`'s line.
    static var versionLine: String {
        guard let stamp = current else {
            return "deltasync (built from source; release builds print their version, commit and date)"
        }
        return "deltasync \(stamp.version) (commit \(stamp.commit), built \(stamp.date))"
    }
}
