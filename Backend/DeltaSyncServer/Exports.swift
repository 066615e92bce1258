// What `ServerConfiguration.functions` holds (`ClosureFunction`, `HTTPFunction`,
// `LocalProcessFunction`) comes with the server: configuring it needs no second import.
@_exported import DeltaSyncFunctions
