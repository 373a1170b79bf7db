/*
 * The plugins add their hooks to each route as it is added (an `onRoute` hook), not per request: a route's rule is
 * read from its options once, and a route that declares none pays nothing. Hooks take a callback, not a promise,
 * where they can (an async hook costs a promise per request).
 */

/** A route's own hooks of one kind (none, one or several), as a list. */
export function hookList<Hook>(hooks: Hook | Hook[] | undefined): Hook[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}
