// Rows as objects, made from arrays of column values by a function compiled for the column list.
// Both drivers build a row object by adding each column in turn (better-sqlite3 in C++, pg by
// spreading a template and assigning), which for 500 accounts of 29 columns costs twice the read
// itself (3.3 ms against 1.7 on SQLite at agency scale); an object literal of fixed shape costs next to
// nothing, and every row then shares one shape for the code that reads it. The objects are the ones
// the drivers make: a repeated column name keeps its last value.

const factories = new Map<string, (row: unknown[]) => unknown>();
const MAX_FACTORIES = 2000;

/** The maker of row objects for these column names; null for a column named `__proto__`. */
export function rowFactory(names: readonly string[]): ((row: unknown[]) => unknown) | null {
  if (names.includes('__proto__')) return null; // an object literal would set the prototype instead
  const key = names.join('\u0000');
  let make = factories.get(key);
  if (!make) {
    // Keys are JSON string literals and values are read by index: nothing from the SQL is evaluated.
    make = new Function(
      'r',
      `return {${names.map((name, i) => `${JSON.stringify(name)}: r[${i}]`).join(', ')}};`,
    ) as (row: unknown[]) => unknown;
    if (factories.size >= MAX_FACTORIES) factories.delete(factories.keys().next().value as string);
    factories.set(key, make);
  }
  return make;
}
