/// A pipeline resolver's before or after step: a mapping template (the before and after
/// templates), or a handler of the resolver's APPSYNC_JS code (`request` before the functions,
/// `response` after them).
///
/// ```swift
/// let resolver = try FieldResolver.pipeline(before: .code(code), functions: [getPost], after: .code(code))
/// ```
enum PipelineHandler: Sendable {
    case template(MappingTemplate)
    case code(ResolverCode)
}
