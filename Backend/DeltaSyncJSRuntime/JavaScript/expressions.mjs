// DynamoDB expressions from AppSync's objects: filters and conditions ({title: {beginsWith: 'a'},
// or: [...], not: {...}}), key conditions, update objects (with the `operations` helpers) and
// projections, each with `#name` and `:value` placeholders. util.transform and the
// @aws-appsync/utils/dynamodb module build their requests with it.
//
// A value placeholder is the path to its operator (`:or_1_title_eq`), as AppSync's documented
// `:title_contains` is; names are `#` and the attribute. Only placeholders the expression uses
// are listed: DynamoDB refuses unused ones.
import { toDynamoDB } from './util-dynamodb.mjs';

const COMPARISONS = { eq: '=', ne: '<>', lt: '<', le: '<=', gt: '>', ge: '>=' };
const FUNCTIONS = { contains: 'contains', notContains: 'NOT contains', beginsWith: 'begins_with' };
const KEY_OPERATORS = new Set(['eq', 'lt', 'le', 'gt', 'ge', 'between', 'beginsWith']);
// Amplify's ModelAttributeTypes to DynamoDB's type codes; codes pass as they are.
const ATTRIBUTE_TYPES = {
  binary: 'B', binarySet: 'BS', bool: 'BOOL', list: 'L', map: 'M', number: 'N', numberSet: 'NS',
  string: 'S', stringSet: 'SS', _null: 'NULL',
};

/** Marks an `operations.*` value inside an update object. */
export const OPERATION = Symbol.for('deltasync.appsync.operation');

function fail(message) {
  throw new Error(message);
}

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function sanitized(text) {
  return String(text).replace(/[^A-Za-z0-9_]/g, '_');
}

/** `(a OR b)`, or `a` alone; null for nothing. */
function group(parts, joiner) {
  if (parts.length < 2) return parts[0] ?? null;
  return `(${parts.join(` ${joiner} `)})`;
}

/** Placeholders of one request's expressions. */
export class ExpressionBuilder {
  constructor() {
    this.names = {};
    this.values = {};
  }

  /** `#attribute` for an attribute name. */
  name(attribute) {
    let placeholder = '#' + sanitized(attribute);
    for (let n = 1; this.names[placeholder] !== undefined && this.names[placeholder] !== attribute; n += 1) {
      placeholder = `#${sanitized(attribute)}_${n}`;
    }
    this.names[placeholder] = String(attribute);
    return placeholder;
  }

  /** `#a.#b` for a dotted path, as a projection names nested attributes. */
  path(text) {
    return String(text).split('.').map((part) => this.name(part)).join('.');
  }

  /** `:path` holding `value` typed. */
  value(path, value) {
    let placeholder = ':' + sanitized(path);
    for (let n = 1; this.values[placeholder] !== undefined; n += 1) placeholder = `:${sanitized(path)}_${n}`;
    this.values[placeholder] = toDynamoDB(value);
    return placeholder;
  }

  /** `{expression, expressionNames, expressionValues}`, empty maps left out. */
  expression(text) {
    const expression = { expression: text };
    if (Object.keys(this.names).length) expression.expressionNames = this.names;
    if (Object.keys(this.values).length) expression.expressionValues = this.values;
    return expression;
  }

  // MARK: - Filters and conditions

  /** The condition of a filter object, its parts ANDed; '' for none. */
  condition(filter) {
    return this.conditions(filter, []).join(' AND ');
  }

  conditions(filter, path) {
    if (filter === null || filter === undefined) return [];
    if (!isObject(filter)) fail(`a filter must be an object, not ${JSON.stringify(filter)}`);
    const parts = [];
    for (const [key, value] of Object.entries(filter)) {
      if (value === null || value === undefined) continue;
      if (key === 'and' || key === 'or') {
        const members = (Array.isArray(value) ? value : [value])
          .map((member, offset) => group(this.conditions(member, [...path, key, offset]), 'AND'))
          .filter((member) => member !== null);
        const joined = group(members, key.toUpperCase());
        if (joined !== null) parts.push(joined);
      } else if (key === 'not') {
        const inner = this.conditions(value, [...path, 'not']);
        if (inner.length) parts.push(`NOT (${inner.join(' AND ')})`);
      } else {
        if (!isObject(value)) fail(`the filter of '${key}' must be an object of operators, as {eq: ...}`);
        const joined = group(this.field(key, value, path), 'AND');
        if (joined !== null) parts.push(joined);
      }
    }
    return parts;
  }

  field(attribute, operators, path, allowed) {
    const name = this.name(attribute);
    const parts = [];
    for (const [op, operand] of Object.entries(operators)) {
      if (operand === undefined || (operand === null && op !== 'eq' && op !== 'ne')) continue;
      if (allowed && !allowed.has(op)) fail(`'${op}' of '${attribute}' is not a key condition operator (eq lt le gt ge between beginsWith)`);
      const at = [...path, attribute, op].join('_');
      if (COMPARISONS[op]) {
        parts.push(`${name} ${COMPARISONS[op]} ${this.value(at, operand)}`);
      } else if (FUNCTIONS[op]) {
        parts.push(`${FUNCTIONS[op]}(${name}, ${this.value(at, operand)})`);
      } else if (op === 'between') {
        parts.push(`${name} BETWEEN ${this.bounds(at, operand, attribute)}`);
      } else if (op === 'attributeExists') {
        parts.push(`${operand ? 'attribute_exists' : 'attribute_not_exists'}(${name})`);
      } else if (op === 'attributeType') {
        parts.push(`attribute_type(${name}, ${this.value(at, ATTRIBUTE_TYPES[operand] ?? operand)})`);
      } else if (op === 'size') {
        parts.push(...this.size(name, operand, at, attribute));
      } else if (op === 'in') {
        if (!Array.isArray(operand) || operand.length === 0) fail(`'in' of '${attribute}' needs a list of at least one value`);
        parts.push(`${name} IN (${operand.map((member, i) => this.value(`${at}_${i}`, member)).join(', ')})`);
      } else {
        fail(`'${op}' of '${attribute}' is no filter operator (eq ne le lt ge gt contains notContains between beginsWith attributeExists attributeType size in)`);
      }
    }
    return parts;
  }

  size(name, operand, at, attribute) {
    if (!isObject(operand)) fail(`'size' of '${attribute}' takes an object of operators, as {gt: 3}`);
    const parts = [];
    for (const [op, bound] of Object.entries(operand)) {
      if (bound === null || bound === undefined) continue;
      if (COMPARISONS[op]) parts.push(`size(${name}) ${COMPARISONS[op]} ${this.value(`${at}_${op}`, bound)}`);
      else if (op === 'between') parts.push(`size(${name}) BETWEEN ${this.bounds(`${at}_between`, bound, attribute)}`);
      else fail(`'${op}' is no operator of 'size' (eq ne le lt ge gt between)`);
    }
    return parts;
  }

  bounds(at, operand, attribute) {
    if (!Array.isArray(operand) || operand.length !== 2) fail(`'between' of '${attribute}' takes a list of two values, [low, high]`);
    return `${this.value(`${at}_1`, operand[0])} AND ${this.value(`${at}_2`, operand[1])}`;
  }

  // MARK: - Key conditions

  /** A query's key condition: equality on the partition key, one comparison on the sort key. */
  keyCondition(query) {
    if (!isObject(query)) fail('a query needs a key condition object, as {id: {eq: ...}}');
    const parts = [];
    for (const [attribute, operators] of Object.entries(query)) {
      if (operators === undefined) continue;
      if (!isObject(operators)) fail(`the key condition of '${attribute}' must be an object of operators, as {eq: ...}`);
      parts.push(...this.field(attribute, operators, [], KEY_OPERATORS));
    }
    return parts.join(' AND ');
  }

  // MARK: - Updates

  /** An update object as `SET ... REMOVE ... ADD ...`. */
  update(object) {
    if (!isObject(object)) fail('update takes an object of attributes to change');
    const clauses = { SET: [], REMOVE: [], ADD: [], DELETE: [] };
    this.updates(object, [], clauses);
    return Object.entries(clauses)
      .filter(([, actions]) => actions.length)
      .map(([clause, actions]) => `${clause} ${actions.join(', ')}`)
      .join(' ');
  }

  updates(object, path, clauses) {
    for (const [attribute, value] of Object.entries(object)) {
      if (value === undefined) continue;
      const names = [...path, attribute];
      const target = names.map((part) => this.name(part)).join('.');
      const at = names.join('_');
      const operation = value !== null && typeof value === 'object' ? value[OPERATION] : undefined;
      if (operation) {
        this.operation(operation, value, target, at, clauses);
      } else if (Array.isArray(value) && value.length && value.every((member) => member && member[OPERATION] === 'updateListItem')) {
        for (const member of value) clauses.SET.push(`${target}[${Number(member.index)}] = ${this.value(`${at}_${member.index}`, member.value)}`);
      } else if (isObject(value)) {
        // A plain object changes the attributes it names, not the whole map: replace() does that.
        this.updates(value, names, clauses);
      } else {
        clauses.SET.push(`${target} = ${this.value(at, value)}`);
      }
    }
  }

  operation(kind, operation, target, at, clauses) {
    switch (kind) {
      case 'add':
        // DynamoDB's ADD adds to numbers and sets; any other value is set when it is missing.
        if (typeof operation.value === 'number') clauses.ADD.push(`${target} ${this.value(`${at}_add`, operation.value)}`);
        else clauses.SET.push(`${target} = if_not_exists(${target}, ${this.value(`${at}_add`, operation.value)})`);
        break;
      case 'remove': clauses.REMOVE.push(target); break;
      case 'replace': clauses.SET.push(`${target} = ${this.value(at, operation.value)}`); break;
      case 'increment': clauses.ADD.push(`${target} ${this.value(`${at}_increment`, operation.by)}`); break;
      case 'decrement': clauses.ADD.push(`${target} ${this.value(`${at}_decrement`, -operation.by)}`); break;
      case 'append': clauses.SET.push(`${target} = list_append(if_not_exists(${target}, ${this.value(`${at}_empty`, [])}), ${this.value(`${at}_append`, operation.value)})`); break;
      case 'prepend': clauses.SET.push(`${target} = list_append(${this.value(`${at}_prepend`, operation.value)}, if_not_exists(${target}, ${this.value(`${at}_empty`, [])}))`); break;
      case 'updateListItem': clauses.SET.push(`${target}[${Number(operation.index)}] = ${this.value(`${at}_${operation.index}`, operation.value)}`); break;
      default: fail(`'${kind}' is no update operation`);
    }
  }

  // MARK: - Projections

  /** `['id', 'author.name']` as `#id, #author.#name`. */
  projection(attributes) {
    if (!Array.isArray(attributes)) fail('projection takes a list of attribute names');
    return attributes.map((attribute) => this.path(attribute)).join(', ');
  }
}
