import MarkdownIt from 'markdown-it';
import { full as emojiPlugin } from 'markdown-it-emoji';
import subPlugin from 'markdown-it-sub';
import supPlugin from 'markdown-it-sup';
import sanitizeHtml from 'sanitize-html';
import { highlightClasses } from './highlight-classes.js';
import { type CodeHighlighter, highlightPlugin } from './highlight-plugin.js';
import { markdownTags } from './html-tags.js';
import { type TexRenderer, texPlugin } from './markdown-tex.js';
import { keepMathmlAttributes, mathmlAttributes, mathmlTags } from './mathml-allow-list.js';

export type { TexRenderer } from './markdown-tex.js';

/** Waline's markdown extensions, each switched by its `MARKDOWN_*` variable (config.ts). */
export interface MarkdownFeatures {
  /** Shortcodes and emoticons as emoji, `:smile:` and `:)` (markdown-it-emoji's full set). */
  readonly emoji: boolean;
  /** `H~2~O` as a subscript. */
  readonly sub: boolean;
  /** `x^2^` as a superscript. */
  readonly sup: boolean;
  /** `$…$` and `$$…$$` as MathML (markdown-tex.ts). */
  readonly tex: boolean;
  /** Fenced code of a known language as Prism's token spans (highlight-code.ts). */
  readonly highlight: boolean;
}

/** Waline's defaults: every extension on. */
export const allMarkdownFeatures: MarkdownFeatures = {
  emoji: true,
  sub: true,
  sup: true,
  tex: true,
  highlight: true,
};

const EXTERNAL_LINK_REL = 'nofollow noreferrer noopener ugc';
const LINK_SCHEMES = ['http', 'https', 'mailto'];
const HTTP_URL = /^https?:\/\//i;
const INLINE_IMAGE_URL = /^data:image\/(?:png|jpeg|gif|webp);base64,[a-z\d+/]+={0,2}$/i;

/** Whether a browser would leave the site for this href, once it drops the whitespace and controls it ignores. */
function isExternal(href: string): boolean {
  const compact = Array.from(href)
    .filter((char) => char > ' ')
    .join('');
  const scheme = /^([a-z][a-z\d+.-]*):/i.exec(compact)?.[1]?.toLowerCase();
  return /^[/\\]{2}/.test(compact) || (scheme !== undefined && LINK_SCHEMES.includes(scheme));
}

function transformLink(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const { target: _target, rel: _rel, ...rest } = attribs;
  if (rest.href === undefined || !isExternal(rest.href)) {
    return { tagName, attribs: rest };
  }
  return { tagName, attribs: { ...rest, target: '_blank', rel: EXTERNAL_LINK_REL } };
}

function transformImage(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const { src } = attribs;
  if (src !== undefined && (HTTP_URL.test(src) || INLINE_IMAGE_URL.test(src))) {
    return { tagName, attribs: { ...attribs, loading: 'lazy' } };
  }
  const { src: _src, ...withoutSrc } = attribs;
  return { tagName, attribs: withoutSrc };
}

const sanitizeOptions: sanitizeHtml.IOptions = {
  allowedTags: [...markdownTags],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height', 'class', 'loading'],
    code: ['class'],
    ol: ['start'],
  },
  allowedClasses: {
    img: ['wl-emoji'],
    code: [/^language-[\w+#.-]+$/],
  },
  allowedSchemes: LINK_SCHEMES,
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: true,
  disallowedTagsMode: 'discard',
  // `annotation` holds a formula's TeX source: a second copy of the formula, which browsers do not draw.
  nonTextTags: ['annotation', 'annotation-xml', 'script', 'style', 'textarea', 'noscript', 'xmp'],
  parseStyleAttributes: false,
  transformTags: { a: transformLink, img: transformImage },
  // The scheme checks above delete refused URLs: such a link keeps its text, such an image goes entirely.
  exclusiveFilter: (frame) => {
    if (frame.attribs.href === undefined && frame.tag === 'a') {
      return 'excludeTag';
    }
    return frame.tag === 'img' && frame.attribs.src === undefined;
  },
};

const transformMathml = (tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag => ({
  tagName,
  attribs: keepMathmlAttributes(attribs),
});

/** sanitizeOptions grown by what the features on produce, and by nothing else. */
function sanitizeOptionsFor(features: MarkdownFeatures): sanitizeHtml.IOptions {
  const spans = features.highlight ? ['span'] : [];
  const mathml = features.tex ? mathmlTags : [];
  return {
    ...sanitizeOptions,
    allowedTags: [...(sanitizeOptions.allowedTags || []), ...spans, ...mathml],
    allowedAttributes: {
      ...sanitizeOptions.allowedAttributes,
      ...Object.fromEntries(mathml.map((tag) => [tag, [...mathmlAttributes]])),
    },
    allowedClasses: {
      ...sanitizeOptions.allowedClasses,
      ...(features.highlight ? { span: [...highlightClasses] } : {}),
    },
    transformTags: {
      ...sanitizeOptions.transformTags,
      ...Object.fromEntries(mathml.map((tag) => [tag, transformMathml])),
    },
    exclusiveFilter: (frame) =>
      // A span is only ever a highlighted token: one whose classes were all refused is dropped, not its text.
      frame.tag === 'span' && frame.attribs.class === undefined
        ? 'excludeTag'
        : (sanitizeOptions.exclusiveFilter?.(frame) ?? false),
  };
}

/** A renderer: markdown-it with the features' plugins, then the sanitiser. */
function createRenderer(
  features: MarkdownFeatures,
): (text: string, renderTex?: TexRenderer, highlighter?: CodeHighlighter) => string {
  const markdown = new MarkdownIt({ html: true, breaks: true, linkify: true, typographer: true });
  if (features.emoji) markdown.use(emojiPlugin);
  if (features.sub) markdown.use(subPlugin);
  if (features.sup) markdown.use(supPlugin);
  if (features.tex) markdown.use(texPlugin);
  if (features.highlight) markdown.use(highlightPlugin);
  const options = sanitizeOptionsFor(features);
  return (text, renderTex, highlighter) =>
    sanitizeHtml(markdown.render(text, { renderTex, highlighter }), options);
}

/** One renderer per combination of features, built on first use (at most 32). */
const renderers = new Map<string, ReturnType<typeof createRenderer>>();

/**
 * Renders a comment's markdown to HTML that is safe to store and serve as is, with the Waline extensions
 * `features` turns on (all by default, as on Waline). Formulas are rendered by `renderTex`
 * (tex-to-mathml.ts' texToMathml), a parameter so that KaTeX loads only when a comment has a `$`
 * (write-only-modules.ts); without it they keep the text they were written as. Code fences are
 * highlighted by `highlighter` (highlight-code.ts' Prism, loaded only for a comment with a fence); without
 * it they are plain code.
 */
export function renderMarkdown(
  text: string,
  features: MarkdownFeatures = allMarkdownFeatures,
  renderTex?: TexRenderer,
  highlighter?: CodeHighlighter,
): string {
  const key = [features.emoji, features.sub, features.sup, features.tex, features.highlight].join();
  let render = renderers.get(key);
  if (render === undefined) {
    render = createRenderer(features);
    renderers.set(key, render);
  }
  return render(text, renderTex, highlighter);
}
