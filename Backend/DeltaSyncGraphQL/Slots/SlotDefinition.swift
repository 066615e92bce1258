/// A mapping template's text and the name errors give it: the file it came from
/// (`resolvers/Mutation.createTodo.init.1.req.vtl`), so a template that does not parse stops
/// the start with that file, line and column.
public struct TemplateText: Sendable, Equatable {
    public var name: String
    public var text: String

    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }
}

/// A function the project puts into a slot of a generated field's pipeline, as Gen 1 projects
/// do with `resolvers/<Type>.<field>.<slot>.<N>.req.vtl` / `.res.vtl` files: templates over the
/// `NONE` data source, run in the slot's place around DeltaSync's generated data step, sharing
/// its context (`$ctx.args`, `$ctx.stash`, `$ctx.prev.result`).
///
/// ```swift
/// // Every sync query of Todo answers a base sync for clients more than 5 minutes behind.
/// configuration.slots = [SlotFunctionDefinition(
///     type: "Query", field: "syncTodos", slot: .preAuth, position: 1,
///     request: TemplateText(name: "Query.syncTodos.preAuth.1.req.vtl",
///                           text: #"$util.qr($ctx.stash.put("deltaSyncTableTtl", 5)) {}"#))]
/// ```
public struct SlotFunctionDefinition: Sendable {
    public var type: String
    public var field: String
    public var slot: Slot
    /// The file's `N`. Functions of one slot run in the order of the text `order<N>`, as
    /// Amplify sorts them: `10` runs before `2`.
    public var position: Int
    /// `nil` renders `{}`, as Amplify fills a missing template.
    public var request: TemplateText?
    /// `nil` renders `{}`.
    public var response: TemplateText?

    public init(type: String, field: String, slot: Slot, position: Int, request: TemplateText?, response: TemplateText?) {
        self.type = type
        self.field = field
        self.slot = slot
        self.position = position
        self.request = request
        self.response = response
    }
}

/// The project's replacement for a generated field's data step, as Gen 1 projects write it
/// (`resolvers/Query.getTodo.req.vtl`, `.res.vtl`). A request template runs against the model's
/// table (DynamoDB's requests on DeltaSync's store, versions and delta log kept) instead of the
/// generated read or write; a response template turns the step's result (`$ctx.result`) into
/// the field's value. Either may be given alone: the other half stays DeltaSync's.
///
/// ```swift
/// configuration.overrides = [DataStepOverride(
///     type: "Query", field: "getTodo", request: nil,
///     response: TemplateText(name: "Query.getTodo.res.vtl", text: "$util.toJson($ctx.result)"))]
/// ```
public struct DataStepOverride: Sendable {
    public var type: String
    public var field: String
    public var request: TemplateText?
    public var response: TemplateText?

    public init(type: String, field: String, request: TemplateText?, response: TemplateText?) {
        self.type = type
        self.field = field
        self.request = request
        self.response = response
    }
}
