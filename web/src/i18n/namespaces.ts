/** `{ '../locales/<lang>/<ns>.json': module }` (an eager import.meta.glob) as `{ <ns>: texts }`. */
export function namespaces(files: Record<string, { default: Record<string, unknown> }>): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [path, mod] of Object.entries(files)) {
    const m = /\/([^/]+)\.json$/.exec(path);
    if (m) out[m[1]] = mod.default;
  }
  return out;
}
