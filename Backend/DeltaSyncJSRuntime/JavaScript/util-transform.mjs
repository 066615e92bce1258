// util.transform: filter and condition objects as DynamoDB expressions, returned as JSON text
// ({expression, expressionNames, expressionValues}), as AppSync's utilities return them; the
// @aws-appsync/utils/dynamodb helpers take the objects directly and are the easier way.
import { ExpressionBuilder } from './expressions.mjs';

function expressionText(filter) {
  const builder = new ExpressionBuilder();
  const expression = builder.condition(filter);
  return JSON.stringify({ expression, expressionNames: builder.names, expressionValues: builder.values });
}

export const transform = {
  toDynamoDBFilterExpression: (filter) => expressionText(filter),
  toDynamoDBConditionExpression: (condition) => expressionText(condition),
};
