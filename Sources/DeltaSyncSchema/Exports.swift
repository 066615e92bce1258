// The schema description is part of what `import DeltaSyncSchema` gives: the parser
// produces it, and code that parses schemas reads it.
@_exported import DeltaSyncModelSchema

// GraphQL has a `Field` too; inside this module the schema's is meant.
typealias Field = DeltaSyncModelSchema.Field
