import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { build, transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lambdaBundleOptions, projectRoot, toEsbuildOptions } from '../../../../lib/bundle-options.js';
import { mapStackPositions, sourceMappedStack } from '../../../../functions/shared/source-mapped-stack.js';

const run = promisify(execFile);
let workDir = '';
let bundle = '';

/**
 * Imports the bundle in a fresh node (no --enable-source-maps), calls `failing` (an export of
 * failing-bundle-entry.ts) and returns the stack, raw and mapped.
 */
async function stacksOf(
  file: string,
  failing: 'failingRoute' | 'failingChunk' = 'failingRoute',
): Promise<{ raw: string; mapped: string }> {
  const script = `
    const bundle = await import(${JSON.stringify(pathToFileURL(file).href)});
    try { await bundle.${failing}(); } catch (error) {
      console.log(JSON.stringify({ raw: error.stack, mapped: bundle.sourceMappedStack(error.stack) }));
    }`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH },
  });
  return JSON.parse(stdout) as { raw: string; mapped: string };
}

describe('sourceMappedStack', () => {
  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'marginalia-stack-'));
    bundle = join(workDir, 'index.mjs');
    await build({
      ...toEsbuildOptions(lambdaBundleOptions(), {
        entry: join(projectRoot, 'test/support/fixtures/failing-bundle-entry.ts'),
        outdir: workDir,
      }),
      logLevel: 'warning',
    });
  });
  afterAll(() => rm(workDir, { recursive: true, force: true }));

  it('maps the minified bundle positions of a stack back to the TypeScript line, from the .map file', async () => {
    const { raw, mapped } = await stacksOf(bundle);

    expect(raw).toContain('index.mjs:');
    expect(raw).not.toContain('failing-bundle-entry.ts');
    expect(mapped).toMatch(/test\/support\/fixtures\/failing-bundle-entry\.ts:6:\d+/);
    expect(mapped).toContain('Error: route failed');
    expect(mapped).not.toContain('index.mjs:');
  });

  it('maps the positions of a chunk the bundle loads with import(), from the chunk’s own .map file', async () => {
    const { raw, mapped } = await stacksOf(bundle, 'failingChunk');

    expect(raw).toMatch(/chunks\/failing-chunk-\w+\.mjs:/);
    expect(mapped).toMatch(/test\/support\/fixtures\/failing-chunk\.ts:3:\d+/);
    expect(mapped).toMatch(/test\/support\/fixtures\/failing-bundle-entry\.ts:\d+:\d+/);
    expect(mapped).toContain('Error: chunk failed');
    expect(mapped).not.toContain('.mjs:');
  });

  it('leaves the stack alone when the bundle has no map beside it', async () => {
    // A copy in a folder of its own: the bundle the other test maps keeps its map.
    const alone = join(workDir, 'without-map', 'index.mjs');
    await mkdir(dirname(alone), { recursive: true });
    await copyFile(bundle, alone);
    const { raw, mapped } = await stacksOf(alone);

    expect(mapped).toBe(raw);
  });

  it('leaves its own frames alone when it runs unbundled, with no map beside it, and a huge stack unread', () => {
    const own = new URL('../../../../functions/shared/source-mapped-stack.ts', import.meta.url).href;
    const stack = `Error: x\n    at f (${own}:3:4)`;
    const huge = `Error: x\n${`    at f (${own}:3:4)\n`.repeat(2000)}`;

    expect(sourceMappedStack(stack)).toBe(stack);
    expect(sourceMappedStack(huge)).toBe(huge);
  });

  it('looks for the map of a bundle file beside it, once, and leaves its frames alone when there is none', () => {
    const bundleFile = new URL('../../../../functions/shared/no-such-bundle.mjs', import.meta.url).href;
    const stack = `Error: x\n    at f (${bundleFile}:1:20)\n    at g (${bundleFile}:1:40)`;

    expect(sourceMappedStack(stack)).toBe(stack);
    expect(sourceMappedStack(stack)).toBe(stack);
  });

  it('leaves frames of other files alone, and unbundled code has nothing to map', () => {
    const stack = 'Error: x\n    at f (file:///var/task/other.mjs:1:200)\n    at node:internal/x:3:4';
    expect(sourceMappedStack(stack)).toBe(stack);
  });
});

describe('mapStackPositions', () => {
  it('replaces the positions of the bundle with their source, line and column, and leaves the rest', async () => {
    const source =
      'export function a() {\n  return 1;\n}\n\nexport function fail() {\n  throw new Error("x");\n}\n';
    const out = await transform(source, {
      loader: 'ts',
      format: 'esm',
      minify: true,
      sourcemap: 'external',
      sourcefile: '../../functions/shared/fail.ts',
    });
    const map = new SourceMap(JSON.parse(out.map) as SourceMapPayload);
    const column = out.code.indexOf('throw') + 1;
    const bundle = 'file:///var/task/index.mjs';
    const stack = [
      'Error: x',
      `    at fail (${bundle}:1:${column})`,
      `    at other (file:///var/task/other.mjs:1:${column})`,
      `    at unmapped (${bundle}:0:0)`,
    ].join('\n');

    expect(mapStackPositions(stack, bundle, map).split('\n')).toEqual([
      'Error: x',
      '    at fail (functions/shared/fail.ts:6:3)',
      `    at other (file:///var/task/other.mjs:1:${column})`,
      `    at unmapped (${bundle}:0:0)`,
    ]);
  });
});
