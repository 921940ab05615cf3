// Text that cannot be stored as UTF-8: a lone UTF-16 surrogate (e.g. "x\ud800y") would come back as
// "x\ufffdy". Inputs carrying one are refused where they enter (the /v1 body, IPC and bridge calls).
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The path of the first string (or object key) with a lone surrogate, or null when there is none. */
export function loneSurrogatePath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? path || '(value)' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = loneSurrogatePath(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (LONE_SURROGATE.test(key)) return at;
      const found = loneSurrogatePath(inner, at);
      if (found) return found;
    }
  }
  return null;
}

export const LONE_SURROGATE_MESSAGE =
  'contains an unpaired UTF-16 surrogate (text that is not valid Unicode)';
