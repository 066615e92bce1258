// What ``ServerConfiguration/resolvers`` and ``ServerConfiguration/dataSources`` hold, for
// embedders that import DeltaSyncServer alone.
@_exported import struct DeltaSyncGraphQL.DataSourceDefinition
@_exported import struct DeltaSyncGraphQL.FunctionDefinition
@_exported import struct DeltaSyncGraphQL.ResolverDefinition
