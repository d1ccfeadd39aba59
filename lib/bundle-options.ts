/**
 * How the Lambda functions are bundled. The CDK construct (lib/marginalia-function.ts) and the benchmark
 * (scripts/bench/) both build with these settings, so the bundle the benchmark measures is the bundle we deploy.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';

/** The project root: esbuild runs here, and relative alias targets are resolved from here. */
export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * Bundled ESM has no `require`; a CommonJS dependency that calls `require('node:…')` needs one.
 * The alias keeps the banner's import from colliding with a `createRequire` inside the bundle.
 */
const requireShim =
  "import { createRequire as topLevelCreateRequire } from 'node:module'; " +
  'const require = topLevelCreateRequire(import.meta.url);';

/** esbuild settings of a Lambda bundle. */
export interface LambdaBundleOptions {
  readonly format: 'esm';
  readonly platform: 'node';
  /** Node 22 is the Lambda runtime: esbuild leaves its syntax alone. */
  readonly target: 'node22';
  readonly minify: true;
  /**
   * A `.map` beside the bundle, read only when an error is logged (functions/shared/source-mapped-stack.ts).
   * Not `--enable-source-maps`: that parses the map on every cold start, 30 to 60 ms before the first answer.
   */
  readonly sourcemap: true;
  /** The map leaves out the original sources: stack traces need only its mappings, in a map three times smaller. */
  readonly sourcesContent: false;
  /** Prefer the ESM build of each dependency: it tree-shakes, the CommonJS one does not. */
  readonly mainFields: readonly string[];
  /** Non-ASCII characters as UTF-8 rather than `\uXXXX` escapes: the entity tables and zh-CN text shrink. */
  readonly charset: 'utf8';
  readonly banner: string;
  /** Module replacements, each target relative to `projectRoot` (`./…`). */
  readonly alias: Readonly<Record<string, string>>;
  /**
   * Each `import()` becomes a chunk of its own (`chunks/` beside `index.mjs`), read from disk and evaluated
   * on first import only: a cold start reads the entry and what it imports statically, and the write-only
   * modules (functions/shared/domain/write-only-modules.ts: the markdown renderer, KaTeX, the user-agent
   * parser) wait for the first comment written.
   */
  readonly splitting: true;
}

/** The settings of every Lambda bundle; resolving the aliases fails loudly when a dependency moved. */
export function lambdaBundleOptions(): LambdaBundleOptions {
  return {
    format: 'esm',
    platform: 'node',
    target: 'node22',
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    mainFields: ['module', 'main'],
    charset: 'utf8',
    banner: requireShim,
    alias: bundleAliases(),
    splitting: true,
  };
}

/**
 * The settings as esbuild `build()` options: `entry` bundled into `outdir` as `index.mjs` (Lambda's
 * `index.handler`), with its chunks in `outdir/chunks/`. The stack (lib/marginalia-function.ts) and the benchmark both build with these.
 */
export function toEsbuildOptions(
  options: LambdaBundleOptions,
  files: { readonly entry: string; readonly outdir: string },
): BuildOptions {
  return {
    absWorkingDir: projectRoot,
    entryPoints: [files.entry],
    outdir: files.outdir,
    entryNames: 'index',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    splitting: options.splitting,
    bundle: true,
    format: options.format,
    platform: options.platform,
    target: options.target,
    minify: options.minify,
    sourcemap: options.sourcemap,
    sourcesContent: options.sourcesContent,
    mainFields: [...options.mainFields],
    charset: options.charset,
    banner: { js: options.banner },
    alias: { ...options.alias },
  };
}

/**
 * Replacements that drop code the functions never run (sizes are minified bytes of the comment bundle):
 * - `postcss`: sanitize-html only uses it for `style` attributes, which we never parse (~90 KB);
 * - `@aws-sdk/credential-provider-node`: on Lambda the credentials are in the environment (~130 KB);
 * - `htmlparser2`: sanitize-html only uses its `Parser`, not the DOM handler, utils and serialiser
 *   (~105 KB with the old `entities` copy the serialiser brings);
 * - `entities`: markdown-it only needs `decodeHTML`, which the copy htmlparser2 already bundles has too;
 *   one copy of the HTML entity table instead of two (~70 KB);
 * - `@smithy/core/event-streams`: loaded only for operations that stream events, and DynamoDB has none (~15 KB);
 * - `dayjs`: launder needs it for dates, and sanitize-html only uses launder's `naughtyHref` (~7 KB).
 * test/unit/lib/bundle-options.test.ts proves the bundled renderer's output equals the unbundled one's.
 */
function bundleAliases(): Record<string, string> {
  const require = createRequire(import.meta.url);
  const stub = (name: string) => fileURLToPath(new URL(`./bundle-stubs/${name}`, import.meta.url));
  // The htmlparser2 and entities sanitize-html itself resolves, wherever npm placed them.
  const htmlparser2Index = createRequire(require.resolve('sanitize-html')).resolve('htmlparser2');
  const parser = join(dirname(htmlparser2Index), 'Parser.js');
  if (!existsSync(parser)) {
    throw new Error(
      `lib/bundle-options.ts: no Parser.js next to ${htmlparser2Index}; update the htmlparser2 alias`,
    );
  }
  const entitiesDecode = createRequire(htmlparser2Index).resolve('entities/decode');
  const targets: Record<string, string> = {
    postcss: stub('postcss.ts'),
    '@aws-sdk/credential-provider-node': stub('credential-provider-env-only.ts'),
    '@smithy/core/event-streams': stub('event-streams.ts'),
    dayjs: stub('dayjs.ts'),
    htmlparser2: parser,
    entities: entitiesDecode,
    'entities/decode': entitiesDecode,
  };
  // Relative to the project root, so the paths also hold inside a bundling container.
  return Object.fromEntries(
    Object.entries(targets).map(([name, file]) => [
      name,
      `./${relative(projectRoot, file).split(sep).join('/')}`,
    ]),
  );
}
