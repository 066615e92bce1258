import Crypto
import Foundation

/// APPSYNC_JS code of a resolver or function: an ES module exporting `request(ctx)` and
/// `response(ctx)`, checked as AppSync checks code when it is saved (``JSCodeError`` for what
/// it would refuse), ready for ``AppSyncJSRuntime`` to run.
///
/// ```swift
/// let code = try JSCode(name: "resolvers/Query.echo.js", text: """
///     import { util } from '@aws-appsync/utils';
///     export function request(ctx) { return { payload: ctx.args }; }
///     export function response(ctx) { return ctx.result; }
///     """)
/// ```
public struct JSCode: Sendable, Hashable {
    /// Where the code came from, for messages (`resolvers/Query.echo.js`).
    public let name: String
    public let text: String
    /// The text's SHA-256, hex: the worker imports each text once, from a file of this name.
    public let digest: String
    /// Whether the text names `ctx.info`'s selection set, which is then made for it.
    public let readsSelection: Bool

    /// - Throws: ``JSCodeError`` for code AppSync would not save: not an ES module exporting
    ///   both `request` and `response`, importing a module AppSync does not provide, using a
    ///   feature its runtime does not run, or longer than AppSync's limit.
    public init(name: String, text: String) throws(JSCodeError) {
        let exports = try JSCodeCheck.exports(of: text, name: name)
        for handler in JSHandler.allCases where !exports.contains(handler.rawValue) {
            throw JSCodeError(
                file: name,
                message: "the code exports no \(handler.rawValue) function: AppSync's APPSYNC_JS code is an ES module that exports request(ctx) and response(ctx) (export function \(handler.rawValue)(ctx) { ... })")
        }
        self.name = name
        self.text = text
        digest = SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
        readsSelection = text.contains("selectionSet")
    }
}

/// The two exports of APPSYNC_JS code.
public enum JSHandler: String, Sendable, CaseIterable {
    /// Before the data source: returns its request (a unit resolver, a function), or the
    /// pipeline's first `ctx.prev.result` (a pipeline resolver).
    case request
    /// After the data source: turns `ctx.result` into the value (the field's, or the next
    /// step's `ctx.prev.result`).
    case response
}
