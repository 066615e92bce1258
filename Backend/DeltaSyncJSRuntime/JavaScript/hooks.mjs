// Module resolution hooks of DeltaSync's worker (registered by worker.mjs): the specifiers
// AppSync's runtime provides resolve to DeltaSync's implementation of them. Resolver code imports
// nothing else on AppSync (other modules are bundled into the file), and DeltaSync refuses other
// imports when the server starts.
let specifiers = {};

/** `data.specifiers`: specifier to file URL. */
export async function initialize(data) {
  specifiers = (data && data.specifiers) || {};
}

export async function resolve(specifier, context, nextResolve) {
  const url = specifiers[specifier];
  if (url) return { url, shortCircuit: true };
  return nextResolve(specifier, context);
}
