import GraphQL

extension AmplifySchema {
    /// Parses an Amplify GraphQL schema split over one or more files.
    ///
    /// The files form one schema: a type in one file may refer to a type in another. Directives of
    /// transformer v2 (`@model`, `@primaryKey`, `@index`, `@hasMany`, `@hasOne`, `@belongsTo`,
    /// `@manyToMany`, `@default`) and v1 (`@key`, `@connection`) are understood; authorization and
    /// other AppSync directives (`@auth`, `@aws_*`, `@searchable`, `@function`, ...) are accepted
    /// and ignored.
    ///
    /// - Parameter sources: The schema files, in the order they are to be read.
    /// - Returns: The models, enums and non-model types with keys, indexes and relations resolved.
    /// - Throws: ``SchemaError`` locating the first problem (syntax, unknown type or directive,
    ///   bad directive argument, broken relation, ...).
    public static func parse(_ sources: [SchemaSource]) throws(SchemaError) -> AmplifySchema {
        var documents: [Document] = []
        for source in sources {
            documents.append(try parseDocument(source))
        }
        var parser = SchemaParser(documents: documents)
        return try parser.parse()
    }

    /// Parses an Amplify GraphQL schema held in one string.
    ///
    /// ```swift
    /// let schema = try AmplifySchema.parse(source: "type Post @model { id: ID! title: String }")
    /// ```
    ///
    /// - Parameters:
    ///   - source: The GraphQL SDL text.
    ///   - file: The file name errors report.
    /// - Throws: ``SchemaError`` locating the first problem.
    public static func parse(source: String, file: String = "<input>") throws(SchemaError) -> AmplifySchema {
        try parse([SchemaSource(file: file, text: source)])
    }

    private static func parseDocument(_ source: SchemaSource) throws(SchemaError) -> Document {
        let graphQLSource = Source(body: source.text, name: source.file)
        do {
            return try GraphQL.parse(source: graphQLSource)
        } catch let error as GraphQLError {
            throw SchemaError(syntaxError: error, file: source.file, text: graphQLSource.body)
        } catch {
            throw SchemaError(file: source.file, line: 0, column: 0, message: "syntax error: \(error)")
        }
    }
}
