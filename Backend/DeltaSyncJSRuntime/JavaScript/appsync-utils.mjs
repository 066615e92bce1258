// What `import { util, runtime, extensions } from '@aws-appsync/utils'` gives resolver code in
// DeltaSync's worker (hooks.mjs maps the specifier here). DeltaSync's own implementation of the
// documented surface; the worker also sets the three as globals, as AppSync does.
export { extensions, runtime, util } from './util.mjs';
