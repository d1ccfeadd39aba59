import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MarkdownFeatures } from '../../../../../functions/shared/domain/render-markdown.js';

const rendererPath = '../../../../../functions/shared/domain/render-markdown.js';
const katexPath = '../../../../../functions/shared/domain/tex-to-mathml.js';
const prismPath = '../../../../../functions/shared/domain/highlight-code.js';
/** The modules imported since the test began: each mock only records that its module was imported. */
const loaded = new Set<string>();

const features: MarkdownFeatures = { emoji: true, sub: true, sup: true, tex: true, highlight: true };
const writeOnlyModules = () => import('../../../../../functions/shared/domain/write-only-modules.js');

describe('loadMarkdownRenderer', () => {
  beforeEach(() => {
    vi.resetModules();
    loaded.clear();
    vi.doMock(rendererPath, async (importOriginal) => {
      loaded.add('renderer');
      return importOriginal();
    });
    vi.doMock(katexPath, async (importOriginal) => {
      loaded.add('katex');
      return importOriginal();
    });
    vi.doMock(prismPath, async (importOriginal) => {
      loaded.add('prism');
      return importOriginal();
    });
  });

  it('loads nothing before the first comment', async () => {
    const { loadMarkdownRenderer } = await writeOnlyModules();

    loadMarkdownRenderer(features);

    expect([...loaded]).toEqual([]);
  });

  it('loads the renderer but not KaTeX when the comment has no $', async () => {
    const render = (await writeOnlyModules()).loadMarkdownRenderer(features);

    expect(await render('**bold** :smile:')).toBe('<p><strong>bold</strong> 😄</p>\n');
    expect([...loaded]).toEqual(['renderer']);
  });

  it('loads KaTeX and renders the formula when the comment has a $', async () => {
    const render = (await writeOnlyModules()).loadMarkdownRenderer(features);

    expect(await render('$x$')).toBe('<p><math><semantics><mrow><mi>x</mi></mrow></semantics></math></p>\n');
    expect([...loaded].sort()).toEqual(['katex', 'renderer']);
  });

  it('loads Prism and highlights only for a comment with a code fence', async () => {
    const render = (await writeOnlyModules()).loadMarkdownRenderer(features);

    expect(await render('inline `let a;` is no fence')).not.toContain('token');
    expect([...loaded]).toEqual(['renderer']);
    expect(await render('```js\nlet a;\n```')).toContain('<span class="token keyword">let</span>');
    expect([...loaded].sort()).toEqual(['prism', 'renderer']);
  });

  it('loads Prism for a tilde fence indented by up to three spaces, and never when highlighting is off', async () => {
    const render = (await writeOnlyModules()).loadMarkdownRenderer(features);
    expect(await render('text\n   ~~~py\nx = 1\n   ~~~')).toContain('class="token');

    loaded.clear();
    const plain = (await writeOnlyModules()).loadMarkdownRenderer({ ...features, highlight: false });
    expect(await plain('```js\nlet a;\n```')).not.toContain('token');
    expect([...loaded]).not.toContain('prism');
  });

  it('never loads KaTeX when tex is off', async () => {
    const render = (await writeOnlyModules()).loadMarkdownRenderer({ ...features, tex: false });

    expect(await render('$x$')).toBe('<p>$x$</p>\n');
    expect([...loaded]).toEqual(['renderer']);
  });

  it('tries a renderer that failed to load again on the next comment', async () => {
    let attempts = 0;
    // Replace beforeEach's mock of the renderer outright, and drop any module it already produced, so that the
    // first import of this test is the one that fails (a run under load once saw beforeEach's module served).
    vi.doUnmock(rendererPath);
    vi.resetModules();
    vi.doMock(rendererPath, async (importOriginal) => {
      attempts += 1;
      if (attempts === 1) throw new Error('chunk missing');
      return importOriginal();
    });
    const render = (await writeOnlyModules()).loadMarkdownRenderer(features);

    // vitest wraps the factory's error in its own.
    await expect(render('one')).rejects.toThrow();
    expect(await render('two')).toBe('<p>two</p>\n');
    expect(await render('three')).toBe('<p>three</p>\n');
    expect(attempts).toBe(2);
  });
});
