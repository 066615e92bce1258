// util.dynamodb: values as DynamoDB's typed values, the form DynamoDB requests carry: strings
// {S}, numbers {N} (the number itself, as AppSync writes it), booleans {BOOL}, null {NULL: true},
// lists {L} (never sets), objects {M}. Unlike VTL's $util.dynamodb there are no *Json variants:
// JavaScript builds the request as an object.

function fail(message) {
  throw new Error(`util.dynamodb: ${message}`);
}

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `value` as a typed value; keys whose value is undefined are left out, as JSON leaves them out. */
export function toDynamoDB(value) {
  if (value === null || value === undefined) return { NULL: true };
  switch (typeof value) {
    case 'string': return { S: value };
    case 'number':
      if (!Number.isFinite(value)) fail(`${value} is not a number DynamoDB stores`);
      return { N: value };
    case 'bigint': return { N: value.toString() };
    case 'boolean': return { BOOL: value };
    default:
      if (Array.isArray(value)) return { L: value.map(toDynamoDB) };
      if (isObject(value)) return { M: toMapValues(value) };
      fail(`a ${typeof value} has no DynamoDB type`);
  }
  return undefined;
}

/** Each value of `object` typed: what a request's `key` and `attributeValues` hold. */
export function toMapValues(object) {
  if (!isObject(object)) fail('toMapValues takes an object');
  const typed = {};
  for (const [key, value] of Object.entries(object)) {
    if (value !== undefined) typed[key] = toDynamoDB(value);
  }
  return typed;
}

function number(value) {
  const parsed = typeof value === 'string' ? Number(value) : value;
  if (typeof parsed !== 'number' || !Number.isFinite(parsed)) fail(`'${value}' is not a number`);
  return parsed;
}

function distinct(values) {
  return [...new Set(values)];
}

function list(value, what) {
  if (!Array.isArray(value)) fail(`${what} takes a list`);
  return value;
}

/** S3 object text as AppSync stores a file reference: `{"s3": {key, bucket, region[, version]}}`. */
function s3Text(key, bucket, region, version) {
  const s3 = { key, bucket, region };
  if (version !== undefined && version !== null) s3.version = version;
  return JSON.stringify({ s3 });
}

export const dynamodb = {
  toDynamoDB,
  toMapValues,
  toString: (value) => ({ S: String(value) }),
  toStringSet: (values) => ({ SS: distinct(list(values, 'toStringSet').map(String)) }),
  toNumber: (value) => ({ N: number(value) }),
  toNumberSet: (values) => ({ NS: distinct(list(values, 'toNumberSet').map(number)) }),
  toBinary: (value) => ({ B: String(value) }),
  toBinarySet: (values) => ({ BS: distinct(list(values, 'toBinarySet').map(String)) }),
  toBoolean: (value) => {
    if (typeof value !== 'boolean') fail('toBoolean takes a boolean');
    return { BOOL: value };
  },
  toNull: () => ({ NULL: null }),
  toList: (values) => ({ L: list(values, 'toList').map(toDynamoDB) }),
  toMap: (object) => ({ M: toMapValues(object) }),
  toS3Object: (key, bucket, region, version) => ({ S: s3Text(key, bucket, region, version) }),
  fromS3ObjectJson: (text) => {
    let parsed;
    try {
      parsed = typeof text === 'string' ? JSON.parse(text) : text;
    } catch {
      fail(`'${text}' is not JSON`);
    }
    if (parsed && typeof parsed.S === 'string') parsed = JSON.parse(parsed.S);
    if (!parsed || !isObject(parsed.s3)) fail('the value has no "s3" object of key, bucket and region');
    const { key, bucket, region, version } = parsed.s3;
    return version === undefined || version === null ? { key, bucket, region } : { key, bucket, region, version };
  },
};
