/** True when out/renderer is missing or older than its sources. */
export function rendererIsStale(root?: string): boolean;
/** Builds the renderer when stale; false when the build failed. */
export function ensureRendererBuilt(root?: string): boolean;
