// The JSON of an answer as UTF-8 chunks to write in order, reusing the bytes of kept values already
// written: a read model's kept lines (kept-lines.ts) are deeply frozen and handed back as the same
// objects while unchanged, so a long list that did not move (645 KB for 500 accounts) costs a lookup
// instead of a serialization, a copy into one string and an encoding on every request.
import type { Writable } from 'node:stream';
import { isKept } from '../kept-lines';

const written = new WeakMap<object, Buffer>();

const OPEN = Buffer.from('{');
const CLOSE = Buffer.from('}');
const OPEN_LIST = Buffer.from('[');
const CLOSE_LIST = Buffer.from(']');
const COMMA = Buffer.from(',');

/** The chunks' total length in bytes (their content-length). */
export function byteLength(chunks: readonly Buffer[]): number {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  return length;
}

/**
 * Writes the chunks and ends the response, in one packet: corked, kept bodies and lines are written as
 * they are, not copied together (end() uncorks).
 */
export function endWithChunks(res: Writable, chunks: readonly Buffer[]): void {
  res.cork();
  for (const chunk of chunks) if (chunk.length > 0) res.write(chunk);
  res.end();
}

/** Appends the JSON of `value` to `chunks` (and returns them). */
export function jsonChunks(value: unknown, chunks: Buffer[] = []): Buffer[] {
  if (value !== null && typeof value === 'object') {
    if (isKept(value)) {
      chunks.push(keptBytes(value));
      return chunks;
    }
    // A plain answer around kept values (`{data: {generatedAt, items: kept}}`): member by member.
    if (!Array.isArray(value) && holdsKept(value)) {
      chunks.push(OPEN);
      let first = true;
      for (const [name, member] of Object.entries(value)) {
        if (member === undefined || typeof member === 'function') continue;
        if (!first) chunks.push(COMMA);
        first = false;
        chunks.push(Buffer.from(`${JSON.stringify(name)}:`));
        jsonChunks(member, chunks);
      }
      chunks.push(CLOSE);
      return chunks;
    }
  }
  chunks.push(Buffer.from(JSON.stringify(value) ?? 'null', 'utf8'));
  return chunks;
}

/** The JSON of `value` as one string (tests, and callers that need text). */
export function jsonText(value: unknown): string {
  return Buffer.concat(jsonChunks(value)).toString('utf8');
}

function keptBytes(value: object): Buffer {
  let bytes = written.get(value);
  if (bytes === undefined) {
    bytes = Array.isArray(value)
      ? Buffer.concat(listChunks(value))
      : Buffer.from(JSON.stringify(value), 'utf8');
    written.set(value, bytes);
  }
  return bytes;
}

function listChunks(list: readonly unknown[]): Buffer[] {
  const chunks: Buffer[] = [OPEN_LIST];
  list.forEach((item, i) => {
    if (i > 0) chunks.push(COMMA);
    jsonChunks(item === undefined || typeof item === 'function' ? null : item, chunks);
  });
  chunks.push(CLOSE_LIST);
  return chunks;
}

/**
 * A kept value among the members, or among theirs (the envelope's `data`). Only plain objects are
 * looked into, never a list that is not kept (that would walk every answer), nor a value with toJSON.
 */
function holdsKept(value: object, depth = 2): boolean {
  if ('toJSON' in value) return false;
  for (const member of Object.values(value)) {
    if (member === null || typeof member !== 'object') continue;
    if (isKept(member)) return true;
    if (depth > 1 && !Array.isArray(member) && holdsKept(member, depth - 1)) return true;
  }
  return false;
}
