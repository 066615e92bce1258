/// The Node program that runs an Amplify-style handler behind the line protocol of
/// ``LocalProcessFunction``; ``HandlerRuntime/node`` writes it to `bootstrap.cjs`.
///
/// `.cjs` so that Node treats it as CommonJS even inside a `"type": "module"` package. It
/// keeps the real stdout for answers and sends all console output to stderr, loads CommonJS
/// with `require` and ES modules with `import()`, and exits when stdin ends.
enum NodeBootstrap {
    static let source = #"""
// DeltaSync's Node bootstrap: runs one Lambda handler behind DeltaSync's line protocol.
// Usage: node bootstrap.cjs <sourceDirectory> <handler>. DeltaSync writes this file and
// rewrites it when its own version changes; edits here are lost.
'use strict';
const fs = require('fs');
const path = require('path');
const util = require('util');
const readline = require('readline');
const { pathToFileURL } = require('url');

const [sourceDirectory = '.', handlerName = ''] = process.argv.slice(2);
const root = path.resolve(sourceDirectory);

// The real stdout carries answers only. Everything user code prints, through console or
// process.stdout, is its log and goes to stderr.
const answerStream = process.stdout;
const writeAnswerText = answerStream.write.bind(answerStream);
const writeLog = (...args) => { process.stderr.write(util.format(...args) + '\n'); };
process.stdout.write = (chunk, encoding, callback) => process.stderr.write(chunk, encoding, callback);
for (const level of ['log', 'info', 'warn', 'error', 'debug']) console[level] = writeLog;

class LoadFailure {
  constructor(errorType, errorMessage) { this.errorType = errorType; this.errorMessage = errorMessage; }
}

// "index.handler" is file "index", export "handler"; "lib/app.main" is file "lib/app",
// export "main"; "index.a.b" reaches into nested objects.
function splitHandler(name) {
  const slash = name.lastIndexOf('/');
  const dot = name.indexOf('.', slash + 1);
  if (dot <= slash + 1 || dot === name.length - 1) return null;
  return { file: name.slice(0, dot), keys: name.slice(dot + 1).split('.') };
}

function isInModulePackage(file) {
  let directory = path.dirname(file);
  for (;;) {
    const manifest = path.join(directory, 'package.json');
    if (fs.existsSync(manifest)) {
      try { return JSON.parse(fs.readFileSync(manifest, 'utf8')).type === 'module'; } catch { return false; }
    }
    const parent = path.dirname(directory);
    if (parent === directory) return false;
    directory = parent;
  }
}

async function importFile(file) {
  return import(pathToFileURL(file).href);
}

async function loadModule(file) {
  const base = path.resolve(root, file);
  for (const extension of ['.js', '.mjs', '.cjs']) {
    const candidate = base + extension;
    if (!fs.existsSync(candidate)) continue;
    if (extension === '.mjs' || (extension === '.js' && isInModulePackage(candidate))) return importFile(candidate);
    try {
      return require(candidate);
    } catch (error) {
      if (error && error.code === 'ERR_REQUIRE_ESM') return importFile(candidate);
      throw error;
    }
  }
  let resolved;
  try {
    resolved = require.resolve(base);
  } catch {
    throw new LoadFailure('Runtime.ImportModuleError', `Error: Cannot find module '${file}' (looked for ${file}.js, ${file}.mjs and ${file}.cjs in ${root})`);
  }
  return require(resolved);
}

async function loadHandler() {
  const parts = splitHandler(handlerName);
  if (!parts) throw new LoadFailure('Runtime.MalformedHandlerName', `Bad handler '${handlerName}': it must be <file>.<export>, such as index.handler`);
  let loaded;
  try {
    loaded = await loadModule(parts.file);
  } catch (error) {
    if (error instanceof LoadFailure) throw error;
    const described = describeError(error);
    writeLog(error && error.stack ? error.stack : String(error));
    if (error instanceof SyntaxError) throw new LoadFailure('Runtime.UserCodeSyntaxError', `${described.errorType}: ${described.errorMessage}`);
    if (error && (error.code === 'MODULE_NOT_FOUND' || error.code === 'ERR_MODULE_NOT_FOUND')) {
      throw new LoadFailure('Runtime.ImportModuleError', `Error: ${described.errorMessage}`);
    }
    throw new LoadFailure(described.errorType, described.errorMessage);
  }
  let target = loaded;
  for (const key of parts.keys) target = target === undefined || target === null ? undefined : target[key];
  if (typeof target !== 'function' && loaded && loaded.default && typeof loaded.default === 'object') {
    // A CommonJS module imported as ESM keeps its exports under "default".
    target = loaded.default;
    for (const key of parts.keys) target = target === undefined || target === null ? undefined : target[key];
  }
  if (typeof target !== 'function') throw new LoadFailure('Runtime.HandlerNotFound', `${handlerName} is undefined or not exported`);
  return target;
}

// Lambda reports an Error by its name and message, and anything else thrown by its type.
function describeError(error) {
  if (error instanceof Error || (error !== null && typeof error === 'object' && typeof error.message === 'string')) {
    const type = (typeof error.name === 'string' && error.name) || (error.constructor && error.constructor.name) || 'Error';
    return { errorType: type, errorMessage: String(error.message) };
  }
  if (typeof error === 'string') return { errorType: 'string', errorMessage: error };
  let text;
  try { text = JSON.stringify(error); } catch { text = undefined; }
  return { errorType: typeof error, errorMessage: text === undefined ? String(error) : text };
}

function makeContext(request) {
  const deadline = Number(request.deadlineMs) || Date.now() + 30000;
  const functionName = String(request.functionName || 'function');
  return {
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: String(request.invokedFunctionArn || `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`),
    memoryLimitInMB: String(request.memoryLimitInMB || 128),
    awsRequestId: String(request.awsRequestId || ''),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `${new Date().toISOString().slice(0, 10).replace(/-/g, '/')}/[$LATEST]deltasync`,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(deadline - Date.now(), 0),
  };
}

// Calls the handler the three ways Lambda allows: returning a promise, returning a value, or
// calling back (callback, context.done/succeed/fail).
function runHandler(handler, event, context) {
  return new Promise((resolve, reject) => {
    let settled = false;
    const succeed = (result) => { if (!settled) { settled = true; resolve(result); } };
    const fail = (error) => { if (!settled) { settled = true; reject(error); } };
    const callback = (error, result) => (error === undefined || error === null ? succeed(result) : fail(error));
    context.done = callback;
    context.succeed = succeed;
    context.fail = (error) => fail(error === undefined || error === null ? 'handled' : error);
    let returned;
    try {
      returned = handler(event, context, callback);
    } catch (error) {
      fail(error);
      return;
    }
    if (returned !== null && returned !== undefined && typeof returned.then === 'function') {
      returned.then(succeed, fail);
    } else if (returned !== undefined || handler.length < 3) {
      // A synchronous handler that does not take a callback has answered by returning.
      succeed(returned);
    }
  });
}

let current = null;

function sendAnswer(answerText, then) {
  if (current) current.answered = true;
  writeAnswerText(answerText + '\n', then);
}

function errorAnswer(error) {
  return JSON.stringify({ error: { errorType: String(error.errorType), errorMessage: String(error.errorMessage) } });
}

function logInvokeError(requestId, error, described) {
  const stack = error && typeof error.stack === 'string' ? error.stack.split('\n') : undefined;
  writeLog(`${new Date().toISOString()}\t${requestId}\tERROR\tInvoke Error \t${JSON.stringify({ ...described, stack })}`);
}

const loaded = loadHandler().then((handler) => ({ handler }), (failure) => ({ failure }));

async function handle(line) {
  if (!line.trim()) return;
  let request;
  try {
    request = JSON.parse(line);
  } catch (error) {
    sendAnswer(errorAnswer({ errorType: 'Runtime.InvalidRequest', errorMessage: `The request is not JSON: ${error.message}` }));
    return;
  }
  const context = makeContext(request.context || {});
  current = { requestId: context.awsRequestId, answered: false };
  const { handler, failure } = await loaded;
  if (failure) {
    const described = failure instanceof LoadFailure ? failure : describeError(failure);
    sendAnswer(errorAnswer(described));
    return;
  }
  let result;
  try {
    result = await runHandler(handler, request.event === undefined ? null : request.event, context);
  } catch (error) {
    const described = describeError(error);
    logInvokeError(context.awsRequestId, error, described);
    sendAnswer(errorAnswer(described));
    return;
  }
  let text;
  try {
    text = JSON.stringify(result === undefined ? null : result);
  } catch (error) {
    sendAnswer(errorAnswer({ errorType: 'Runtime.MarshalError', errorMessage: `Unable to stringify response body: ${error.message}` }));
    return;
  }
  sendAnswer(`{"result":${text === undefined ? 'null' : text}}`);
}

// An exception nobody catches, or a rejection nobody handles, ends this runtime as it ends
// Lambda's: the invocation in flight fails with it and the process exits, so the next
// invocation gets a fresh one.
function crash(type, error) {
  const described = describeError(error);
  writeLog(error && error.stack ? error.stack : `${type}: ${described.errorMessage}`);
  const exit = () => process.exit(1);
  if (current && !current.answered) {
    const reported = type === 'unhandledRejection'
      ? { errorType: 'Runtime.UnhandledPromiseRejection', errorMessage: `${described.errorType}: ${described.errorMessage}` }
      : described;
    sendAnswer(errorAnswer(reported), exit);
  } else {
    exit();
  }
}
process.on('uncaughtException', (error) => crash('uncaughtException', error));
process.on('unhandledRejection', (reason) => crash('unhandledRejection', reason));

// One request at a time, in order. When DeltaSync closes stdin (or dies), stop.
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
let queue = Promise.resolve();
lines.on('line', (line) => { queue = queue.then(() => handle(line)); });
lines.on('close', () => process.exit(0));
"""#
}
