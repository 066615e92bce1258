// The handler call being evaluated, as the utilities see it: the server's clock and the caller's
// auth mode (what `util.time.now*`, `util.autoUlid` and `util.authType` read), and what the call
// leaves for the server besides its value (appended errors, `extensions` calls, console lines).
// A worker evaluates one call at a time, so one module-level record is the whole state; the
// worker resets it before each call.

export const invocation = {
  /** The server's clock at the call, in epoch milliseconds (the fixture clock when it is set). */
  now: 0,
  /** `util.authType()`'s answer, or null. */
  authType: null,
  /** `util.appendError` calls: `{message, errorType, data, errorInfo}`. */
  errors: [],
  /** `extensions.*` calls: `{name, value}`. */
  extensions: [],
  /** console lines: `{level, message}`. */
  logs: [],
};

/** Starts a call: the clock and caller it runs with, nothing appended yet. */
export function begin(now, authType) {
  invocation.now = typeof now === 'number' ? now : Date.now();
  invocation.authType = authType ?? null;
  invocation.errors = [];
  invocation.extensions = [];
  invocation.logs = [];
}

/**
 * `runtime.earlyReturn(value, {skipTo})`: thrown through the handler, so no code after the call
 * runs, and caught by the worker, which reports the value as returned early.
 */
export class EarlyReturn {
  constructor(value, skipTo) {
    this.value = value;
    this.skipTo = skipTo;
  }
}

/**
 * `util.error` and `util.unauthorized`: thrown through the handler (AppSync's code cannot catch
 * it either: `try` is not in its language) and reported as the field's error.
 */
export class RaisedError {
  constructor(fields) {
    Object.assign(this, fields);
  }
}
