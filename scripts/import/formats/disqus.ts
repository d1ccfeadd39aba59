/**
 * Disqus XML export (`<forum>-<date>-all.xml[.gz]`): threads and posts of any depth (`<parent>`),
 * HTML messages in CDATA, pretty-printed values with whitespace, posts without `dsq:id`, orphan
 * posts, deleted posts and threads, missing `<isSpam>`.
 */
import { BadInputError, type InputFile, type ParsedSource, type ReadOptions } from '../source.js';
import { child, childText, parseXml, type XmlElement } from '../xml.js';
import { decodePath, pathOf, truthy } from '../values.js';
import { createDateReader } from './common.js';

const dsqId = (element: XmlElement | undefined) => element?.attributes['dsq:id']?.trim() || undefined;

/** Reads Disqus exports. */
export function readDisqus(files: readonly InputFile[], options: ReadOptions): ParsedSource {
  const dates = createDateReader(options.sourceTimezone);
  const result: ParsedSource = { format: 'disqus', comments: [], counters: [], skipped: [], notes: [] };
  for (const file of files) {
    const root = parseXml(file.text, file.name);
    if (root.name !== 'disqus') throw new BadInputError(`${file.name}: the root element must be <disqus>`);
    const threads = new Map<string, { url: string; deleted: boolean }>();
    for (const thread of root.children.filter((element) => element.name === 'thread')) {
      const id = dsqId(thread);
      if (!id) continue;
      const identifier = childText(thread, 'id');
      // The disqus_identifier when it is a path, else the pathname of the thread's link.
      const path = identifier.startsWith('/') ? identifier : pathOf(childText(thread, 'link'));
      threads.set(id, { url: decodePath(path), deleted: truthy(childText(thread, 'isDeleted')) });
    }
    root.children
      .filter((element) => element.name === 'post')
      .forEach((post, i) => {
        const ref = `${file.name} post ${i + 1}`;
        const sourceId = dsqId(post) ?? (childText(post, 'id') || undefined);
        if (!sourceId) {
          result.skipped.push({ ref, reason: 'no dsq:id and no <id>' });
          return;
        }
        const thread = threads.get(dsqId(child(post, 'thread')) ?? '');
        if (!thread) {
          result.skipped.push({ ref, reason: 'its thread is not in the file (orphan post)' });
          return;
        }
        const author = child(post, 'author');
        const parentId = dsqId(child(post, 'parent'));
        const skip = thread.deleted
          ? 'its thread was deleted in Disqus'
          : truthy(childText(post, 'isDeleted'))
            ? 'deleted in Disqus (its replies move up to the nearest kept ancestor)'
            : undefined;
        result.comments.push({
          ref,
          sourceId,
          url: thread.url,
          ...(parentId ? { parentId } : {}),
          nick:
            (author && childText(author, 'name')) || (author && childText(author, 'username')) || 'Anonymous',
          mail: (author && childText(author, 'email')) || '',
          link: '',
          ua: '',
          ip: childText(post, 'ipAddress'),
          text: child(post, 'message')?.text.trim() ?? '',
          // A missing <isSpam> is not spam (Waline's helper makes every pretty-printed post spam).
          status: truthy(childText(post, 'isSpam')) ? 'spam' : 'approved',
          like: 0,
          sticky: false,
          insertedAt: dates.read(childText(post, 'createdAt')),
          ...(skip ? { skip } : {}),
        });
      });
  }
  result.notes.push('Disqus exports carry no votes, pageviews or reactions; usernames and isClosed dropped');
  result.notes.push(...dates.note());
  return result;
}
