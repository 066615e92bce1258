import DeltaSyncServer

/// Resolvers for a `Todo` model with an owner rule and an `Admin` group rule, written the way
/// Amplify's transformer writes them: an auth step that reads the item first (updates and
/// deletes) or checks the result (gets), DynamoDB requests built from the input with
/// `$util.dynamodb` and `$util.transform`, errors raised again with `$ctx.result` as data.
/// What ``DifferentialResolverTests`` runs against the generated resolvers.
enum AmplifyStyleTemplates {
    static let table = "TodoTable"

    /// Who asks: `$isAdmin`, and the owner values that are the caller's (`sub::username`,
    /// `sub`, `username`), `$ownerClaim` being the one a create stores.
    static let caller = ##"""
        #set( $isAdmin = false )
        #foreach( $group in $util.defaultIfNull($ctx.identity.groups, []) )
          #if( $group == "Admin" )#set( $isAdmin = true )#end
        #end
        #set( $ownerClaim = "${ctx.identity.sub}::${ctx.identity.username}" )
        #set( $ownerValues = [$ownerClaim, $ctx.identity.sub, $ctx.identity.username] )
        """##

    /// A response that raises the data source's error again, with the stored item as data.
    static let raiseOrResult = ##"""
        #if( $ctx.error )
          $util.error($ctx.error.message, $ctx.error.type, $ctx.result)
        #end
        $util.toJson($ctx.result)
        """##

    static let createRequest = caller + ##"""
        #set( $input = $util.defaultIfNull($ctx.args.input, {}) )
        #if( $util.isNull($input.owner) )
          $util.qr($input.put("owner", $ownerClaim))
        #end
        #if( !$isAdmin && !$ownerValues.contains($input.owner) )
          $util.unauthorized()
        #end
        #if( $util.isNull($input.id) )
          $util.qr($input.put("id", $util.autoId()))
        #end
        $util.qr($input.put("__typename", "Todo"))
        $util.qr($input.put("createdAt", $util.defaultIfNull($input.createdAt, $util.time.nowISO8601())))
        $util.qr($input.put("updatedAt", $util.defaultIfNull($input.updatedAt, $util.time.nowISO8601())))
        #set( $condition = {"expression": "attribute_not_exists(#id)", "expressionNames": {"#id": "id"}} )
        #if( $ctx.args.condition )
          #set( $extra = $util.parseJson($util.transform.toDynamoDBConditionExpression($ctx.args.condition)) )
          $util.qr($condition.put("expression", "($condition.expression) AND $extra.expression"))
          $util.qr($condition.expressionNames.putAll($extra.expressionNames))
          $util.qr($condition.put("expressionValues", $util.defaultIfNull($extra.expressionValues, {})))
        #end
        {
          "version": "2018-05-29",
          "operation": "PutItem",
          "key": { "id": $util.dynamodb.toDynamoDBJson($input.id) },
          "attributeValues": $util.dynamodb.toMapValuesJson($input),
          "condition": $util.toJson($condition)
        }
        """##

    /// A create's failed condition: the key is taken; AppSync sends no item with it.
    static let createResponse = ##"""
        #if( $ctx.error )
          $util.error($ctx.error.message, $ctx.error.type)
        #end
        $util.toJson($ctx.result)
        """##

    /// The auth step of an update or a delete: the stored item decides.
    static let authorizeRequest = ##"""
        {"version": "2018-05-29", "operation": "GetItem", "key": {"id": $util.dynamodb.toDynamoDBJson($ctx.args.input.id)}}
        """##

    static let authorizeResponse = caller + ##"""
        #if( !$isAdmin && ($util.isNull($ctx.result) || !$ownerValues.contains($ctx.result.owner)) )
          $util.unauthorized()
        #end
        {}
        """##

    static let updateRequest = ##"""
        #set( $input = {} )
        $util.qr($input.putAll($ctx.args.input))
        #set( $names = {} )
        #set( $values = {} )
        #set( $sets = [] )
        #set( $removes = [] )
        $util.qr($input.put("updatedAt", $util.defaultIfNull($input.updatedAt, $util.time.nowISO8601())))
        #foreach( $entry in $input.entrySet() )
          #if( $entry.key != "id" && $entry.key != "_version" )
            $util.qr($names.put("#$entry.key", $entry.key))
            #if( $util.isNull($entry.value) )
              $util.qr($removes.add("#$entry.key"))
            #else
              $util.qr($sets.add("#$entry.key = :$entry.key"))
              $util.qr($values.put(":$entry.key", $util.dynamodb.toDynamoDB($entry.value)))
            #end
          #end
        #end
        #set( $expression = "" )
        #if( !$sets.isEmpty() )
          #set( $expression = "SET" )
          #foreach( $clause in $sets )
            #set( $expression = "$expression $clause" )
            #if( $foreach.hasNext )#set( $expression = "$expression," )#end
          #end
        #end
        #if( !$removes.isEmpty() )
          #set( $expression = "$expression REMOVE" )
          #foreach( $path in $removes )
            #set( $expression = "$expression $path" )
            #if( $foreach.hasNext )#set( $expression = "$expression," )#end
          #end
        #end
        """## + existsCondition + ##"""
        {
          "version": "2018-05-29",
          "operation": "UpdateItem",
          "key": {"id": $util.dynamodb.toDynamoDBJson($ctx.args.input.id)},
          "update": {"expression": $util.toJson($expression), "expressionNames": $util.toJson($names), "expressionValues": $util.toJson($values)},
          "condition": $util.toJson($condition),
          "_version": $util.defaultIfNull($ctx.args.input._version, 0)
        }
        """##

    static let deleteRequest = existsCondition + ##"""
        {
          "version": "2018-05-29",
          "operation": "DeleteItem",
          "key": {"id": $util.dynamodb.toDynamoDBJson($ctx.args.input.id)},
          "condition": $util.toJson($condition),
          "_version": $util.defaultIfNull($ctx.args.input._version, 0)
        }
        """##

    /// `$condition`: the item must exist, and the caller's `condition` input must hold.
    static let existsCondition = ##"""
        #set( $condition = {"expression": "attribute_exists(#id)", "expressionNames": {"#id": "id"}, "expressionValues": {}} )
        #if( $ctx.args.condition )
          #set( $extra = $util.parseJson($util.transform.toDynamoDBConditionExpression($ctx.args.condition)) )
          $util.qr($condition.put("expression", "($condition.expression) AND $extra.expression"))
          $util.qr($condition.expressionNames.putAll($extra.expressionNames))
          $util.qr($condition.expressionValues.putAll($util.defaultIfNull($extra.expressionValues, {})))
        #end
        #if( $condition.expressionValues.isEmpty() )$util.qr($condition.remove("expressionValues"))#end
        """##

    static let getRequest = ##"""
        {"version": "2018-05-29", "operation": "GetItem", "key": {"id": $util.dynamodb.toDynamoDBJson($ctx.args.id)}}
        """##

    static let getResponse = caller + ##"""
        #if( $ctx.error )$util.error($ctx.error.message, $ctx.error.type)#end
        #if( $util.isNull($ctx.result) )#return#end
        #if( !$isAdmin && !$ownerValues.contains($ctx.result.owner) )
          $util.unauthorized()
        #end
        $util.toJson($ctx.result)
        """##

    /// A non-admin caller's reads keep their own items: a filter on the owner values.
    static let ownerFilter = ##"""
        #set( $filter = {} )
        #if( !$isAdmin )
          #set( $filter = {
            "expression": "#owner = :owner0 OR #owner = :owner1 OR #owner = :owner2",
            "expressionNames": {"#owner": "owner"},
            "expressionValues": {
              ":owner0": $util.dynamodb.toDynamoDB($ownerValues[0]),
              ":owner1": $util.dynamodb.toDynamoDB($ownerValues[1]),
              ":owner2": $util.dynamodb.toDynamoDB($ownerValues[2])
            }
          } )
        #end
        """##

    static let listRequest = caller + ownerFilter + ##"""
        #set( $scan = {"version": "2018-05-29", "operation": "Scan", "limit": $util.defaultIfNull($ctx.args.limit, 100)} )
        #if( !$filter.isEmpty() )$util.qr($scan.put("filter", $filter))#end
        $util.toJson($scan)
        """##

    static let byStatusRequest = caller + ownerFilter + ##"""
        #set( $forward = $ctx.args.sortDirection != "DESC" )
        #set( $query = {
          "version": "2018-05-29",
          "operation": "Query",
          "index": "byStatus",
          "query": {"expression": "#status = :status", "expressionNames": {"#status": "status"}, "expressionValues": {":status": $util.dynamodb.toDynamoDB($ctx.args.status)}},
          "limit": $util.defaultIfNull($ctx.args.limit, 100),
          "scanIndexForward": $forward
        } )
        #if( !$filter.isEmpty() )$util.qr($query.put("filter", $filter))#end
        $util.toJson($query)
        """##

    static let pageResponse = ##"""
        #if( $ctx.error )$util.error($ctx.error.message, $ctx.error.type)#end
        $util.toJson({"items": $ctx.result.items, "nextToken": $ctx.result.nextToken})
        """##

    /// The resolvers of `createTodo`, `updateTodo`, `deleteTodo`, `getTodo`, `listTodos` and
    /// `todosByStatus`, over one DynamoDB data source on the `Todo` table.
    static var resolvers: [ResolverDefinition] {
        let authorize = FunctionDefinition(name: "authorize", dataSource: table, request: authorizeRequest, response: authorizeResponse)
        func pipeline(_ field: String, _ request: String) -> ResolverDefinition {
            ResolverDefinition(
                type: "Mutation", field: field,
                kind: .pipeline(
                    before: "{}",
                    functions: [authorize, FunctionDefinition(name: field, dataSource: table, request: request, response: raiseOrResult)],
                    after: "$util.toJson($ctx.prev.result)"))
        }
        return [
            ResolverDefinition(type: "Mutation", field: "createTodo", kind: .unit(dataSource: table, request: createRequest, response: createResponse)),
            pipeline("updateTodo", updateRequest),
            pipeline("deleteTodo", deleteRequest),
            ResolverDefinition(type: "Query", field: "getTodo", kind: .unit(dataSource: table, request: getRequest, response: getResponse)),
            ResolverDefinition(type: "Query", field: "listTodos", kind: .unit(dataSource: table, request: listRequest, response: pageResponse)),
            ResolverDefinition(type: "Query", field: "todosByStatus", kind: .unit(dataSource: table, request: byStatusRequest, response: pageResponse)),
        ]
    }

    static let dataSources = [DataSourceDefinition(name: table, kind: .dynamoDB(table: "Todo"))]
}
