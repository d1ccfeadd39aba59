import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * ESLint's `import-x/no-cycle` (eslint.config.js) catches cycles of values; this catches those of types
 * too, which it skips: a cycle of types is a cycle of concepts, and the next value import makes it real.
 */

const root = join(import.meta.dirname, '../../..');

/** Every module of `folder` (relative to the root) and the project modules each imports, types included. */
function importGraph(folder: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const files = readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(folder, name));
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    graph.set(
      file,
      importedFiles
        .map(({ fileName }) => fileName)
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => relative(root, resolve(root, dirname(file), specifier)).replace(/\.js$/, '.ts')),
    );
  }
  return graph;
}

/** Each cycle found by a depth-first walk, as the modules along it. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string) => {
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) found.push([...path.slice(at), next]);
      else if (!done.has(next) && graph.has(next)) visit(next);
    }
    path.pop();
    done.add(file);
  };
  for (const file of graph.keys()) if (!done.has(file)) visit(file);
  return found;
}

describe('the import graph of functions/', () => {
  it('has no cycle, counting type-only imports', () => {
    expect(cycles(importGraph('functions')).map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('finds a cycle made of type imports (the check itself)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
    ]);
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });
});
