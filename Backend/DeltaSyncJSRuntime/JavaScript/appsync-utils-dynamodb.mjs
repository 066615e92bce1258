// What `import * as ddb from '@aws-appsync/utils/dynamodb'` gives resolver code: request objects
// for the DynamoDB data source built from plain values (get, put, remove, update, query, scan,
// sync) and the `operations` an update object may hold.
import { ExpressionBuilder, OPERATION } from './expressions.mjs';
import { toMapValues } from './util-dynamodb.mjs';

function fail(message) {
  throw new Error(`@aws-appsync/utils/dynamodb: ${message}`);
}

function required(input, name, what) {
  if (input === null || typeof input !== 'object') fail(`${what} takes an object`);
  if (input[name] === undefined || input[name] === null) fail(`${what} needs '${name}'`);
  return input[name];
}

/** Copies the optional fields `names` that `input` sets. */
function optional(request, input, names) {
  for (const name of names) {
    if (input[name] !== undefined && input[name] !== null) request[name] = input[name];
  }
  return request;
}

/** A filter or condition object as `{expression, expressionNames, expressionValues}`. */
function condition(filter) {
  const builder = new ExpressionBuilder();
  const expression = builder.condition(filter);
  return expression ? builder.expression(expression) : undefined;
}

function projection(attributes) {
  if (attributes === undefined || attributes === null) return undefined;
  const builder = new ExpressionBuilder();
  return builder.expression(builder.projection(attributes));
}

/** What put, update and remove share: the key, the condition, versioned sources' fields. */
function write(operation, input, what) {
  const request = { operation, key: toMapValues(required(input, 'key', what)) };
  const when = condition(input.condition);
  if (when) request.condition = when;
  return optional(request, input, ['_version', 'customPartitionKey', 'populateIndexFields']);
}

/** What query and scan share. */
function read(request, input) {
  const filter = condition(input.filter);
  if (filter) request.filter = filter;
  const projected = projection(input.projection);
  if (projected) request.projection = projected;
  return optional(request, input, ['index', 'limit', 'nextToken', 'scanIndexForward', 'consistentRead', 'select', 'segment', 'totalSegments']);
}

/** A GetItem request: `get({key: {id}})`. */
export function get(input) {
  const request = { operation: 'GetItem', key: toMapValues(required(input, 'key', 'get')) };
  const projected = projection(input.projection);
  if (projected) request.projection = projected;
  return optional(request, input, ['consistentRead']);
}

/** A PutItem request: `put({key: {id}, item: {...}, condition})`. */
export function put(input) {
  const request = write('PutItem', input, 'put');
  request.attributeValues = toMapValues(input.item ?? {});
  return request;
}

/** A DeleteItem request: `remove({key: {id}, condition})`. */
export function remove(input) {
  return write('DeleteItem', input, 'remove');
}

/** An UpdateItem request: `update({key: {id}, update: {count: operations.increment(1)}})`. */
export function update(input) {
  const request = write('UpdateItem', input, 'update');
  const builder = new ExpressionBuilder();
  request.update = builder.expression(builder.update(required(input, 'update', 'update')));
  return request;
}

/** A Query request: `query({query: {owner: {eq: id}}, filter, limit, nextToken})`. */
export function query(input) {
  const builder = new ExpressionBuilder();
  const request = { operation: 'Query', query: builder.expression(builder.keyCondition(required(input, 'query', 'query'))) };
  return read(request, input);
}

/** A Scan request: `scan({filter, limit, nextToken})`. */
export function scan(input) {
  return read({ operation: 'Scan' }, input ?? {});
}

/** A Sync request of a versioned data source: `sync({lastSync, limit, nextToken, filter})`. */
export function sync(input) {
  const source = input ?? {};
  const request = { operation: 'Sync' };
  const filter = condition(source.filter);
  if (filter) request.filter = filter;
  return optional(request, source, ['limit', 'nextToken', 'lastSync', 'basePartitionKey', 'deltaIndexName']);
}

function operation(kind, fields) {
  return Object.freeze({ [OPERATION]: kind, ...fields });
}

/** What an update object may set an attribute to besides a plain value. */
export const operations = Object.freeze({
  /** Adds to a number; sets any other value where the attribute is missing. */
  add: (value) => operation('add', { value }),
  /** Removes the attribute. */
  remove: () => operation('remove', {}),
  /** Sets the whole value (a plain object would change only the keys it names). */
  replace: (value) => operation('replace', { value }),
  increment: (by = 1) => operation('increment', { by }),
  decrement: (by = 1) => operation('decrement', { by }),
  /** Appends to a list (an absent list is empty). */
  append: (value) => operation('append', { value }),
  /** Prepends to a list (an absent list is empty). */
  prepend: (value) => operation('prepend', { value }),
  /** Sets the list's item at `index`. */
  updateListItem: (value, index) => operation('updateListItem', { value, index }),
});
