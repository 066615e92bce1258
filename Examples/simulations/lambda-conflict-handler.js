// A team's own conflict handler, as a Lambda function: AppSync (and deltasync) call it with
// the stored item and the item as the late edit would make it. Here a todo once done stays
// done, and otherwise the late edit wins; a late delete goes ahead.
exports.handler = async (event) => {
  if (event.resolver.field.startsWith('delete')) return { action: 'REMOVE' };
  const incoming = event.newItem;
  const stored = event.existingItem;
  return { action: 'RESOLVE', item: { ...incoming, done: Boolean(incoming.done || stored.done) } };
};
