// `util` of @aws-appsync/utils: identifiers, errors, encodings, matching, the caller's auth
// type, and the time, dynamodb, transform, str and math families (each in its own file).
import { EarlyReturn, RaisedError, invocation } from './invocation.mjs';
import { autoId, autoKsuid, autoUlid } from './util-ids.mjs';
import { base64Decode, base64Encode, escapeJavaScript, urlDecode, urlEncode } from './util-encoding.mjs';
import { time } from './util-time.mjs';
import { dynamodb } from './util-dynamodb.mjs';
import { transform } from './util-transform.mjs';
import { math, str } from './util-str-math.mjs';

/**
 * An error as util.error and util.appendError take it, or null when AppSync ignores the call:
 * a message or type that is not a string makes the call a no-op there (aws-appsync-community#384),
 * so it is one here too, with a log line saying so.
 */
function errorFields(call, message, errorType, data, errorInfo) {
  const typeGiven = errorType !== undefined && errorType !== null;
  if (typeof message !== 'string' || (typeGiven && typeof errorType !== 'string')) {
    invocation.logs.push({
      level: 'warn',
      message: `${call} ignored: its message and type must be strings, as AppSync ignores the call otherwise (got ${JSON.stringify(message)}, ${JSON.stringify(errorType)})`,
    });
    return null;
  }
  return { message, errorType: typeGiven ? errorType : null, data: data ?? null, errorInfo: errorInfo ?? null };
}

const patterns = new Map();

export const util = {
  autoId,
  autoUlid,
  autoKsuid,
  /** Ends the handler with the field's error. */
  error(message, errorType, data, errorInfo) {
    const fields = errorFields('util.error', message, errorType, data, errorInfo);
    if (fields) throw new RaisedError(fields);
  },
  /** Adds an error to the field's response; the handler goes on. */
  appendError(message, errorType, data, errorInfo) {
    const fields = errorFields('util.appendError', message, errorType, data, errorInfo);
    if (fields) invocation.errors.push(fields);
  },
  /** Ends the handler with AppSync's Unauthorized error for the field. */
  unauthorized() {
    throw new RaisedError({ unauthorized: true });
  },
  /** Whether the whole of `text` matches `pattern` (a Java regular expression, as AppSync's). */
  matches(pattern, text) {
    let expression = patterns.get(pattern);
    if (!expression) {
      expression = new RegExp(`^(?:${pattern})$`);
      patterns.set(pattern, expression);
    }
    return expression.test(String(text));
  },
  /** `API Key Authorization`, `User Pool Authorization`, ... for the caller's mode. */
  authType: () => invocation.authType,
  escapeJavaScript,
  urlEncode,
  urlDecode,
  base64Encode,
  base64Decode,
  time,
  dynamodb,
  transform,
  str,
  math,
};

/** `runtime` of @aws-appsync/utils. */
export const runtime = {
  /**
   * Ends the handler with `value`: in a request handler the data source and the response
   * handler are skipped; `{skipTo: 'END'}` in a pipeline skips to the resolver's response.
   */
  earlyReturn(value, options) {
    const skipTo = options && options.skipTo;
    if (skipTo !== undefined && skipTo !== 'END' && skipTo !== 'NEXT') throw new Error(`runtime.earlyReturn: skipTo is 'END' or 'NEXT', not ${JSON.stringify(skipTo)}`);
    throw new EarlyReturn(value === undefined ? null : value, skipTo ?? null);
  },
};

/** `extensions` of @aws-appsync/utils: each call is recorded for the server. */
export const extensions = {
  setSubscriptionFilter: (filter) => { invocation.extensions.push({ name: 'setSubscriptionFilter', value: filter ?? null }); },
  setSubscriptionInvalidationFilter: (filter) => { invocation.extensions.push({ name: 'setSubscriptionInvalidationFilter', value: filter ?? null }); },
  invalidateSubscriptions: (request) => {
    invocation.extensions.push({ name: 'invalidateSubscriptions', value: { subscriptionField: request?.subscriptionField ?? null, payload: request?.payload ?? null } });
  },
  evictFromApiCache: (typeName, fieldName, keys) => {
    invocation.extensions.push({ name: 'evictFromApiCache', value: { typeName, fieldName, keys: keys ?? null } });
  },
};
