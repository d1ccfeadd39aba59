import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { lambdaBundleOptions, toEsbuildOptions } from '../../../lib/bundle-options.js';
import { defaultProvider } from '../../../lib/bundle-stubs/credential-provider-env-only.js';
import {
  allMarkdownFeatures,
  type MarkdownFeatures,
  renderMarkdown,
  type TexRenderer,
} from '../../../functions/shared/domain/render-markdown.js';
import { texToMathml } from '../../../functions/shared/domain/tex-to-mathml.js';

type RenderModule = {
  renderMarkdown: (text: string, features?: MarkdownFeatures, renderTex?: TexRenderer) => string;
  allMarkdownFeatures: MarkdownFeatures;
  texToMathml: TexRenderer;
  sanitizeWithStyles: (html: string) => string;
};

const entry = fileURLToPath(new URL('./fixtures/render-entry.ts', import.meta.url));
const countingPostcss = fileURLToPath(new URL('./fixtures/counting-postcss.ts', import.meta.url));

/** Markdown and HTML that exercise every part the aliases touch: entities, the parser, links, styles. */
const samples = [
  'Hello **world**, _this_ is `code` and ~~gone~~.',
  '&amp; &lt; &gt; &quot; &copy; &nbsp; &hellip; &notin; &NotEqualTilde; &ThickSpace; &#x1F600; &#128512;',
  '&amp without a semicolon, &not it, &unknownentity; and & alone; AT&T',
  '<p style="color: red">styled</p><span style="font-size: 99px">big</span><img src="https://a.example/x.png" style="width:1px">',
  '<p>attr entities: <a href="https://a.example/?a=1&amp;b=2&copy=3">q</a></p>',
  '[x](javascript:alert(1)) [y](java&#x09;script:alert(1)) <a href="JaVaScRiPt:alert(1)">z</a>',
  '<script>alert(1)</script><iframe src="https://evil.example"></iframe><form><input></form>',
  '<img src="x" onerror="alert(1)"><img src="data:image/png;base64,iVBORw0KGgo=" alt="dot">',
  '<img class="wl-emoji" src="https://emoji.example/tieba/smile.png" alt="smile">',
  '```js\nconst a = "<b>&amp;</b>";\n```\n\n    indented <code>',
  '| a | b |\n|---|---|\n| 1 | &lt;2&gt; |',
  '<details><summary>More</summary>Hidden &mdash; text</details>',
  'Visit https://example.com/path?q=1&x=2 or www.example.org, mail me@example.com',
  '"Smart quotes" -- and --- dashes... (c) (tm) +-',
  '中文评论，包含 **粗体** 和 &yen; 符号。',
  '<!-- comment --><![CDATA[ data ]]><?pi?><!doctype html><svg><script>x</script></svg>',
  '<a href="//evil.example">proto-relative</a> <a href="/local">local</a> <a href="#top">top</a>',
  '<ol start="3"><li>three</li></ol><table><tr><td title="t">cell</td></tr></table>',
  ':smile: :) H~2~O x^2^ &lt;3',
  'Inline $\\frac{a}{b} \\quad \\color{red}{x}$ and a block:\n\n$$\n\\sum_{i=1}^n i^2 \\tag{1}\n$$',
  '```ts\nconst a: number = 1; // <b>\n```\n\n```php\n<?php echo "&amp;"; ?>\n```',
  '<math><mi mathvariant="bold" href="javascript:x">x</mi><annotation>x</annotation></math>',
];

describe('lambdaBundleOptions', () => {
  let directory: string;
  let bundled: RenderModule;
  let withCountingPostcss: RenderModule;

  /** Bundles the fixture entry with the Lambda settings (plus `alias` overrides) and imports it. */
  async function bundle(name: string, alias: Record<string, string> = {}): Promise<RenderModule> {
    const options = lambdaBundleOptions();
    const outdir = join(directory, name);
    await build({
      ...toEsbuildOptions({ ...options, alias: { ...options.alias, ...alias } }, { entry, outdir }),
      logLevel: 'silent',
    });
    return (await import(pathToFileURL(join(outdir, 'index.mjs')).href)) as RenderModule;
  }

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'marginalia-bundle-'));
    bundled = await bundle('render');
    withCountingPostcss = await bundle('render-counting', { postcss: countingPostcss });
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });
  afterEach(() => {
    delete (globalThis as { postcssCalls?: number }).postcssCalls;
  });

  it('renders every sample exactly as the unbundled renderer does when bundled with the aliases', () => {
    for (const sample of samples) {
      expect(bundled.renderMarkdown(sample, bundled.allMarkdownFeatures, bundled.texToMathml), sample).toBe(
        renderMarkdown(sample, allMarkdownFeatures, texToMathml),
      );
    }
  });

  it('never calls postcss when rendering comments, styles included', () => {
    for (const sample of samples) withCountingPostcss.renderMarkdown(sample);

    expect((globalThis as { postcssCalls?: number }).postcssCalls ?? 0).toBe(0);
  });

  it('reaches the aliased postcss when sanitize-html is asked to parse styles', () => {
    const html = withCountingPostcss.sanitizeWithStyles('<p style="color: red">x</p>');

    expect((globalThis as { postcssCalls?: number }).postcssCalls).toBe(1);
    // The stub throws and sanitize-html drops the attribute it could not parse: it fails closed.
    expect(html).toBe('<p>x</p>');
  });

  it('points every alias at a path relative to the project root', () => {
    for (const target of Object.values(lambdaBundleOptions().alias)) {
      expect(target).toMatch(/^\.\//);
    }
  });
});

describe('the env-only credential provider', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('returns the credentials Lambda puts in the environment', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDEXAMPLE');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'secret');
    vi.stubEnv('AWS_SESSION_TOKEN', 'session');

    const credentials = await defaultProvider()();

    expect(credentials).toMatchObject({
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'secret',
      sessionToken: 'session',
    });
  });

  it('fails when the environment holds no credentials', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', '');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', '');

    await expect(defaultProvider()()).rejects.toThrow(/environment variable credentials/);
  });
});
