// DeltaSync's APPSYNC_JS worker: evaluates resolver and function code (ES modules exporting
// request(ctx) and response(ctx)) behind the line protocol of DeltaSync's local processes.
// DeltaSync writes this folder and starts `node worker.mjs`; edits here are lost.
//
// Each request line is {"event": {module, name, handler, ctx, now, authType}, "context": {...}}:
// the code's file (named by the hash of its text, so it is imported once per text), the name
// messages give it, the export to call, the context object, the server's clock and the
// caller's auth type. The answer line is {"result": {value, earlyReturn, skipTo, raised, stash,
// arguments, errors, extensions, logs}}, or {"error": {errorType, errorMessage}} when the code
// fails (errorType "Code", with the file, line and column).
import { spawnSync } from 'node:child_process';
import { register } from 'node:module';
import readline from 'node:readline';
import { format } from 'node:util';
import { pathToFileURL } from 'node:url';
import { EarlyReturn, RaisedError, begin, invocation } from './invocation.mjs';
import { extensions, runtime, util } from './util.mjs';

if (typeof register !== 'function') {
  process.stderr.write('DeltaSync runs APPSYNC_JS code on Node 18.19, 20.6 or later (module.register); this node is ' + process.version + '\n');
  process.exit(1);
}
register('./hooks.mjs', import.meta.url, {
  data: {
    specifiers: {
      '@aws-appsync/utils': new URL('./appsync-utils.mjs', import.meta.url).href,
      '@aws-appsync/utils/dynamodb': new URL('./appsync-utils-dynamodb.mjs', import.meta.url).href,
    },
  },
});

// AppSync's code reads util, runtime and extensions without importing them too.
Object.assign(globalThis, { util, runtime, extensions });

// The real stdout carries answers only; what code prints goes to the call's log lines, or to
// stderr (the server's log) outside a call.
const answers = process.stdout;
const writeAnswer = answers.write.bind(answers);
let inCall = false;
process.stdout.write = (chunk, encoding, callback) => process.stderr.write(chunk, encoding, callback);
for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
  console[level] = (...parts) => {
    const message = format(...parts);
    if (inCall) invocation.logs.push({ level, message });
    else process.stderr.write(message + '\n');
  };
}

const modules = new Map();

class CodeFailure {
  constructor(message) {
    this.errorType = 'Code';
    this.errorMessage = message;
  }
}

/** `name:line:column` of the first place in the code's file that `error`'s stack names. */
function located(error, url, name) {
  const stack = error && typeof error.stack === 'string' ? error.stack : '';
  const escaped = url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = new RegExp(`${escaped}:(\\d+)(?::(\\d+))?`).exec(stack);
  const where = found ? `${name}:${found[1]}${found[2] ? ':' + found[2] : ''}` : name;
  const kind = error && typeof error.name === 'string' ? error.name : 'Error';
  const message = error && typeof error.message === 'string' ? error.message : JSON.stringify(error) ?? String(error);
  return `${where}: ${kind}: ${message.split(url).join(name)}`;
}

/**
 * Where a syntax error is: an import's SyntaxError carries no position, so node --check reads
 * the file again (once, on failure) for its `file:line` and the caret under the column.
 */
function syntaxErrorPlace(file, name, error) {
  const check = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
  const found = new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+)\n[^\n]*\n( *)\\^`).exec(check.stderr ?? '');
  if (!found) return `${name}: SyntaxError: ${error.message}`;
  return `${name}:${found[1]}:${found[2].length + 1}: SyntaxError: ${error.message}`;
}

async function load(file, name) {
  let loading = modules.get(file);
  if (!loading) {
    const url = pathToFileURL(file).href;
    loading = import(url).catch((error) => {
      modules.delete(file);
      if (error && error.name === 'SyntaxError' && !String(error.stack).includes(url)) throw new CodeFailure(syntaxErrorPlace(file, name, error));
      throw new CodeFailure(located(error, url, name));
    });
    modules.set(file, loading);
  }
  return loading;
}

/** The context object handlers get: ctx.args is ctx.arguments, and ctx.stash cannot be replaced. */
function contextObject(given) {
  const ctx = {
    arguments: given.arguments ?? {},
    source: given.source ?? null,
    identity: given.identity ?? null,
    request: given.request ?? { headers: {} },
    info: given.info ?? {},
    prev: given.prev ?? { result: null },
    env: given.env ?? {},
  };
  Object.defineProperty(ctx, 'args', { get: () => ctx.arguments, set: (value) => { ctx.arguments = value; }, enumerable: false });
  Object.defineProperty(ctx, 'stash', { value: given.stash ?? {}, enumerable: true, writable: false });
  if ('result' in given) ctx.result = given.result;
  if ('error' in given) ctx.error = given.error;
  return ctx;
}

async function evaluate(event) {
  const { module: file, name, handler } = event;
  const url = pathToFileURL(file).href;
  const code = await load(file, name);
  const run = code[handler];
  if (typeof run !== 'function') throw new CodeFailure(`${name}: the code exports no ${handler} function; AppSync's code exports request(ctx) and response(ctx)`);
  const ctx = contextObject(event.ctx ?? {});
  begin(event.now, event.authType);
  const outcome = { value: null, earlyReturn: false, skipTo: null, raised: null };
  inCall = true;
  try {
    const value = run(ctx);
    if (value !== null && typeof value === 'object' && typeof value.then === 'function') {
      throw new CodeFailure(`${name}: ${handler} returned a Promise; AppSync's runtime runs no asynchronous code (async, await, Promise)`);
    }
    outcome.value = value === undefined ? null : value;
  } catch (thrown) {
    if (thrown instanceof EarlyReturn) {
      outcome.value = thrown.value;
      outcome.earlyReturn = true;
      outcome.skipTo = thrown.skipTo;
    } else if (thrown instanceof RaisedError) {
      outcome.raised = { ...thrown };
    } else if (thrown instanceof CodeFailure) {
      throw thrown;
    } else {
      throw new CodeFailure(located(thrown, url, name));
    }
  } finally {
    inCall = false;
  }
  return {
    ...outcome,
    stash: ctx.stash,
    arguments: ctx.arguments,
    errors: invocation.errors,
    extensions: invocation.extensions,
    logs: invocation.logs,
  };
}

function answer(line) {
  writeAnswer(line + '\n');
}

async function handle(line) {
  if (!line.trim()) return;
  let event;
  try {
    event = JSON.parse(line).event ?? {};
  } catch (error) {
    answer(JSON.stringify({ error: { errorType: 'Runtime.InvalidRequest', errorMessage: `The request is not JSON: ${error.message}` } }));
    return;
  }
  try {
    const result = await evaluate(event);
    let text;
    try {
      text = JSON.stringify({ result });
    } catch (error) {
      throw new CodeFailure(`${event.name}: ${event.handler} returned what is not JSON: ${error.message}`);
    }
    answer(text);
  } catch (failure) {
    const error = failure instanceof CodeFailure ? failure : new CodeFailure(`${event.name}: ${failure && failure.message ? failure.message : String(failure)}`);
    answer(JSON.stringify({ error: { errorType: error.errorType, errorMessage: error.errorMessage } }));
  }
}

// One request at a time, in order; when DeltaSync closes stdin (or dies), stop once the calls
// already read are answered.
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
let queue = Promise.resolve();
lines.on('line', (line) => { queue = queue.then(() => handle(line)); });
lines.on('close', () => { queue.then(() => process.exit(0)); });
