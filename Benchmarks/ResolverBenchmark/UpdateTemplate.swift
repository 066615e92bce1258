/// A 100-line request template in the shape of Amplify's generated `updateX` request: the
/// input's fields turned into a DynamoDB `UpdateItem` with `SET`/`REMOVE` clauses, names and
/// values, a condition, and the version. What the engine's throughput is measured on.
enum UpdateTemplate {
    static let text = """
        ## [Start] Update request, as Amplify's transformer writes it. **
        #set( $args = $util.defaultIfNull($ctx.stash.transformedArgs, $ctx.args) )
        #set( $input = $args.input )
        #set( $expNames = {} )
        #set( $expValues = {} )
        #set( $expSet = {} )
        #set( $expAdd = {} )
        #set( $expRemove = [] )
        #set( $keyFields = ["id"] )
        #set( $Key = {} )
        #foreach( $entry in $keyFields )
          $util.qr($Key.put($entry, $util.dynamodb.toDynamoDB($input.get($entry))))
        #end
        ## Model key **
        #if( $ctx.stash.metadata.modelObjectKey )
          #set( $Key = $ctx.stash.metadata.modelObjectKey )
        #end
        ## Automatic timestamps **
        #if( !$input.containsKey("updatedAt") )
          $util.qr($input.put("updatedAt", $util.time.nowISO8601()))
        #end
        ## The typename **
        $util.qr($input.put("__typename", "Post"))
        ## Each input field is set or removed **
        #foreach( $entry in $util.map.copyAndRemoveAllKeys($input, $keyFields).entrySet() )
          #if( $entry.key == "_version" )
            ## The version is the request's, not an attribute **
          #elseif( $util.isNull($entry.value) )
            #set( $discard = $expRemove.add("#$entry.key") )
            $util.qr($expNames.put("#$entry.key", "$entry.key"))
          #else
            $util.qr($expSet.put("#$entry.key", ":$entry.key"))
            $util.qr($expNames.put("#$entry.key", "$entry.key"))
            $util.qr($expValues.put(":$entry.key", $util.dynamodb.toDynamoDB($entry.value)))
          #end
        #end
        ## The update expression **
        #set( $expression = "" )
        #if( !$expSet.isEmpty() )
          #set( $expression = "SET" )
          #foreach( $entry in $expSet.entrySet() )
            #set( $expression = "$expression $entry.key = $entry.value" )
            #if( $foreach.hasNext() )
              #set( $expression = "$expression," )
            #end
          #end
        #end
        #if( !$expAdd.isEmpty() )
          #set( $expression = "$expression ADD" )
          #foreach( $entry in $expAdd.entrySet() )
            #set( $expression = "$expression $entry.key $entry.value" )
            #if( $foreach.hasNext() )
              #set( $expression = "$expression," )
            #end
          #end
        #end
        #if( !$expRemove.isEmpty() )
          #set( $expression = "$expression REMOVE" )
          #foreach( $entry in $expRemove )
            #set( $expression = "$expression $entry" )
            #if( $foreach.hasNext() )
              #set( $expression = "$expression," )
            #end
          #end
        #end
        #set( $update = {} )
        $util.qr($update.put("expression", "$expression"))
        #if( !$expNames.isEmpty() )
          $util.qr($update.put("expressionNames", $expNames))
        #end
        #if( !$expValues.isEmpty() )
          $util.qr($update.put("expressionValues", $expValues))
        #end
        ## The item must exist **
        #set( $condition = {
          "expression": "attribute_exists(#id)",
          "expressionNames": { "#id": "id" },
          "expressionValues": {}
        } )
        #if( $args.condition )
          #set( $conditionFilter = $util.parseJson($util.transform.toDynamoDBConditionExpression($args.condition)) )
          $util.qr($condition.put("expression", "($condition.expression) AND $conditionFilter.expression"))
          $util.qr($condition.expressionNames.putAll($conditionFilter.expressionNames))
          $util.qr($condition.expressionValues.putAll($util.defaultIfNull($conditionFilter.expressionValues, {})))
        #end
        #if( $condition.expressionValues && $condition.expressionValues.size() == 0 )
          #set( $condition = {
            "expression": $condition.expression,
            "expressionNames": $condition.expressionNames
          } )
        #end
        #set( $UpdateItem = {
          "version": "2018-05-29",
          "operation": "UpdateItem",
          "key": $Key,
          "update": $update,
          "condition": $condition,
          "_version": $util.defaultIfNull($args.input["_version"], 0)
        } )
        $util.toJson($UpdateItem)
        ## [End] Update request. **
        """
}
