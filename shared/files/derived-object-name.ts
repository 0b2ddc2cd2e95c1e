/**
 * Names of objects derived from a file (FileStore.putDerived): one path segment of letters, digits, `.`, `_` and
 * `-`, so a name never becomes a path or an S3 key of another level, whichever store keeps it.
 */
const DERIVED_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export const isDerivedObjectName = (name: string): boolean => DERIVED_NAME.test(name);

/** Throws RangeError for a name a store must not use. */
export function checkDerivedObjectName(name: string): void {
  if (!isDerivedObjectName(name))
    throw new RangeError(`derived object name '${name.slice(0, 40)}' is not [A-Za-z0-9][A-Za-z0-9._-]{0,199}`);
}
