/**
 * What a cold start reads of a split bundle. esbuild moves code that the entry and a lazily loaded chunk share
 * into chunks of its own, which the entry then imports statically: Node reads them with the entry, on every cold
 * start. Sizes held to a cold-start target must count them; the chunks only an `import()` reaches are read on
 * first use.
 */
import type { Metafile } from 'esbuild';

/** The outputs `entry` imports statically, itself included, by their metafile paths: what Node loads with it. */
export function staticClosure(outputs: Metafile['outputs'], entry: string): Set<string> {
  const closure = new Set<string>();
  const visit = (path: string) => {
    if (closure.has(path)) return;
    closure.add(path);
    for (const imported of outputs[path]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
    }
  };
  visit(entry);
  return closure;
}
