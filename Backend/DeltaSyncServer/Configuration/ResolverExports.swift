// What ``ServerConfiguration/resolvers``, ``ServerConfiguration/dataSources``,
// ``ServerConfiguration/slots`` and ``ServerConfiguration/overrides`` hold, for
// embedders that import DeltaSyncServer alone.
@_exported import struct DeltaSyncGraphQL.DataSourceDefinition
@_exported import struct DeltaSyncGraphQL.FunctionDefinition
@_exported import struct DeltaSyncGraphQL.ResolverDefinition
@_exported import struct DeltaSyncGraphQL.DataStepOverride
@_exported import enum DeltaSyncGraphQL.Slot
@_exported import struct DeltaSyncGraphQL.SlotFunctionDefinition
@_exported import struct DeltaSyncGraphQL.TemplateText
