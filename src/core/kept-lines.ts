// A read model's lines handed back as the very objects of the last read when nothing in them changed.
// Kept lines are frozen all the way down: nobody can change them, so a transport may keep their
// serialized form (isKept, api/json-text.ts) and a 500-account answer is not written out again line by
// line on every request.

/** Past this many lines the oldest are let go (a line costs a few KB, its JSON as much again). */
const MAX_LINES = 20_000;
/** Lists are kept per reader (workspace, key or user). */
const MAX_LISTS = 1_000;

/** Lines and lists a KeptLines handed out: deeply frozen, so their JSON never changes. */
const handedOut = new WeakSet<object>();

export function isKept(value: object): boolean {
  return handedOut.has(value);
}

/**
 * Freezes a JSON-like value and everything in it. It walks even into what is frozen already: a value
 * frozen elsewhere may be frozen on top only, with members that still change.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  for (const member of Object.values(value)) deepFreeze(member);
  return Object.isFrozen(value) ? value : Object.freeze(value);
}

/**
 * Whether two JSON-like values (plain objects, arrays, strings, numbers, booleans, null) read the
 * same. A plain loop: util.isDeepStrictEqual costs as much as writing the JSON out (prototypes,
 * symbols, key sets).
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  for (const name in x) {
    if (!sameJson(x[name], y[name]) || (x[name] === undefined && !(name in y))) return false;
    count++;
  }
  for (const _ in y) count--;
  return count === 0;
}

export class KeptLines<T extends object> {
  private readonly lines = new Map<string, T>();
  private readonly lists = new Map<string, T[]>();

  /** The line kept under `key` when it equals `line`; else `line`, frozen and kept from now on. */
  keep(key: string, line: T): T {
    const kept = this.lines.get(key);
    if (kept !== undefined && sameJson(kept, line)) return kept;
    if (kept === undefined && this.lines.size >= MAX_LINES) {
      this.lines.delete(this.lines.keys().next().value as string);
    }
    this.lines.set(key, deepFreeze(line));
    handedOut.add(line);
    return line;
  }

  /** The list last kept under `key`. */
  list(key: string): T[] | undefined {
    return this.lists.get(key);
  }

  /**
   * `lines` as kept the last time under `key` when they are the same lines in the same order.
   * Typed as the read model's own list type, but frozen like its lines.
   */
  keepList(key: string, lines: readonly T[]): T[] {
    const kept = this.lists.get(key);
    if (kept?.length === lines.length && kept.every((line, i) => line === lines[i])) return kept;
    if (kept === undefined && this.lists.size >= MAX_LISTS) {
      this.lists.delete(this.lists.keys().next().value as string);
    }
    const list = Object.freeze([...lines]) as T[];
    handedOut.add(list);
    this.lists.set(key, list);
    return list;
  }
}

/** Whole answers kept at most (one per reader and request shape). */
const MAX_ANSWERS = 200;

/**
 * Whole answers kept with the inputs that make them: an answer asked again with the same inputs is
 * the same deeply frozen object, its JSON kept with it. The inputs must hold everything the answer
 * depends on (revisions of the figures, names, the window, settings).
 */
export class KeptAnswers<T extends object> {
  private readonly answers = new Map<string, { inputs: string; answer: T }>();

  async answer(key: string, inputs: string, build: () => Promise<T>): Promise<T> {
    const kept = this.answers.get(key);
    if (kept?.inputs === inputs) return kept.answer;
    const answer = deepFreeze(await build());
    handedOut.add(answer);
    if (kept === undefined && this.answers.size >= MAX_ANSWERS) {
      this.answers.delete(this.answers.keys().next().value as string);
    }
    this.answers.set(key, { inputs, answer });
    return answer;
  }
}
