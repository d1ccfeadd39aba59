/**
 * Disqus XML export (`<forum>-<date>-all.xml[.gz]`): threads and posts of any depth (`<parent>`),
 * HTML messages in CDATA, pretty-printed values with whitespace, posts without `dsq:id`, orphan
 * posts, deleted posts and threads, missing `<isSpam>`. Read as a stream, a record at a time.
 */
import type { Input, ParsedSource, ReadOptions } from '../source.js';
import { child, childText, xmlRecords, type XmlElement } from '../xml-records.js';
import { pathOf, truthy } from '../values.js';
import { commentPage, createDateReader } from './common.js';

/** A `<thread>` of an export: the page its posts belong to. */
export interface DisqusThread {
  readonly kind: 'thread';
  readonly id: string;
  /** The page key the widget asks for. */
  readonly url: string;
  /** The path before decoding, when it differs from `url`. */
  readonly rawUrl?: string;
  readonly deleted: boolean;
}

/** A `<post>` of an export, its values read but not yet tied to its thread. */
export interface DisqusPost {
  readonly kind: 'post';
  /** Where it was read, for the report: `forum.xml post 3`. */
  readonly ref: string;
  /** Its `dsq:id`, else its `<id>`; undefined when it has neither. */
  readonly sourceId: string | undefined;
  readonly threadId: string;
  readonly parentId: string | undefined;
  readonly nick: string;
  readonly mail: string;
  readonly ip: string;
  readonly text: string;
  readonly spam: boolean;
  readonly deleted: boolean;
  readonly createdAt: string;
}

const dsqId = (element: XmlElement | undefined) => element?.attributes['dsq:id']?.trim() || undefined;

function threadOf(thread: XmlElement): DisqusThread | undefined {
  const id = dsqId(thread);
  if (!id) return undefined;
  const identifier = childText(thread, 'id');
  // The disqus_identifier when it is a path, else the pathname of the thread's link.
  const path = identifier.startsWith('/') ? identifier : pathOf(childText(thread, 'link'));
  return { kind: 'thread', id, ...commentPage(path), deleted: truthy(childText(thread, 'isDeleted')) };
}

function postOf(post: XmlElement, ref: string): DisqusPost {
  const author = child(post, 'author');
  return {
    kind: 'post',
    ref,
    sourceId: dsqId(post) ?? (childText(post, 'id') || undefined),
    threadId: dsqId(child(post, 'thread')) ?? '',
    parentId: dsqId(child(post, 'parent')),
    nick: (author && childText(author, 'name')) || (author && childText(author, 'username')) || 'Anonymous',
    mail: (author && childText(author, 'email')) || '',
    ip: childText(post, 'ipAddress'),
    text: child(post, 'message')?.text.trim() ?? '',
    // A missing <isSpam> is not spam (Waline's helper makes every pretty-printed post spam).
    spam: truthy(childText(post, 'isSpam')),
    deleted: truthy(childText(post, 'isDeleted')),
    createdAt: childText(post, 'createdAt'),
  };
}

/**
 * The threads (those with a `dsq:id`) and posts of one export, each as soon as the stream has
 * delivered it whole: categories and the rest are passed over.
 */
export async function* disqusRecords(
  file: Input,
): AsyncGenerator<DisqusThread | DisqusPost, void, undefined> {
  let posts = 0;
  const chunks = 'text' in file ? [file.text] : file.open();
  for await (const element of xmlRecords(chunks, file.name, { root: 'disqus' })) {
    if (element.name === 'thread') {
      const thread = threadOf(element);
      if (thread) yield thread;
    } else if (element.name === 'post') {
      yield postOf(element, `${file.name} post ${++posts}`);
    }
  }
}

/** Reads Disqus exports. */
export async function readDisqus(files: readonly Input[], options: ReadOptions): Promise<ParsedSource> {
  const dates = createDateReader(options.sourceTimezone);
  const result: ParsedSource = { format: 'disqus', comments: [], counters: [], skipped: [], notes: [] };
  for (const file of files) {
    const threads = new Map<string, DisqusThread>();
    // A post may come before its thread: posts are tied to threads once the file is read.
    const posts: DisqusPost[] = [];
    for await (const record of disqusRecords(file)) {
      if (record.kind === 'thread') threads.set(record.id, record);
      else posts.push(record);
    }
    for (const post of posts) {
      const { ref, sourceId, parentId } = post;
      if (!sourceId) {
        result.skipped.push({ ref, reason: 'no dsq:id and no <id>' });
        continue;
      }
      const thread = threads.get(post.threadId);
      if (!thread) {
        result.skipped.push({ ref, reason: 'its thread is not in the file (orphan post)' });
        continue;
      }
      const skip = thread.deleted
        ? 'its thread was deleted in Disqus'
        : post.deleted
          ? 'deleted in Disqus (its replies move up to the nearest kept ancestor)'
          : undefined;
      result.comments.push({
        ref,
        sourceId,
        url: thread.url,
        ...(thread.rawUrl === undefined ? {} : { rawUrl: thread.rawUrl }),
        ...(parentId ? { parentId } : {}),
        nick: post.nick,
        mail: post.mail,
        link: '',
        ua: '',
        ip: post.ip,
        text: post.text,
        status: post.spam ? 'spam' : 'approved',
        like: 0,
        sticky: false,
        insertedAt: dates.read(post.createdAt),
        ...(skip ? { skip } : {}),
      });
    }
  }
  result.notes.push('Disqus exports carry no votes, pageviews or reactions; usernames and isClosed dropped');
  result.notes.push(...dates.note());
  return result;
}
