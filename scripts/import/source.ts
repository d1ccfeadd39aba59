/**
 * The canonical shape every source format is read into, before threading repair, ids and rendering.
 */
import type { CommentStatus } from '../../functions/shared/domain/comment.js';
import type { CounterName } from '../../functions/shared/domain/counters.js';
import type { AccountState, AccountType } from '../../functions/shared/domain/account.js';

/** The source formats the importer reads. */
export const formats = ['waline', 'valine', 'twikoo', 'disqus', 'artalk'] as const;

/** One of {@link formats}; `valine` covers every LeanCloud export (Valine and Waline-on-LeanCloud). */
export type SourceFormat = (typeof formats)[number];

/** One comment as the source holds it, with its references still in source ids. */
export interface SourceComment {
  /** Where it was read, for the report: `Comment.0.jsonl line 4`, `record 3`. */
  readonly ref: string;
  readonly sourceId: string;
  /** The page key the widget asks for comments (decoded path). */
  readonly url: string;
  /** The page key as the source stored it, when it differs from `url` (encoded): merges name it. */
  readonly rawUrl?: string;
  /** The comment it answers, in source ids. */
  readonly parentId?: string;
  /** The root of its thread, in source ids (used when the parent is missing). */
  readonly rootId?: string;
  readonly nick: string;
  readonly mail: string;
  readonly link: string;
  readonly ua: string;
  /** Raw IP, hashed before it is stored; empty when the source has none. */
  readonly ip: string;
  /** An IP hash a Marginalia export carries: stored unchanged (never hashed again). */
  readonly ipHash?: string;
  /** The raw text (markdown or HTML). */
  readonly text: string;
  readonly status: CommentStatus;
  readonly like: number;
  readonly sticky: boolean;
  /** Epoch ms; undefined when the source time could not be read (the comment is skipped). */
  readonly insertedAt: number | undefined;
  /** Why the source says it should not be imported (deleted in Disqus, say); its replies move up. */
  readonly skip?: string;
  /** A Marginalia id carried by the source (a Marginalia export): reused as is. */
  readonly ownId?: string;
  /** The source id of the registered author (Waline's `user_id`), as a string; absent for anonymous rows. */
  readonly userSourceId?: string;
}

/** One registered user as the source holds it (Waline's `Users`), before its address is checked. */
export interface SourceAccount {
  readonly ref: string;
  /** Waline's `objectId` (an SQL integer or a LeanCloud string), as a string: comments' `user_id` names it. */
  readonly sourceId: string;
  readonly email: string;
  readonly displayName: string;
  readonly link: string;
  readonly avatar: string;
  readonly label: string;
  readonly type: AccountType;
  readonly state: AccountState;
  /** Waline's `type` when it was none of Waline's (kept as a guest), for the report. */
  readonly unknownType?: string;
  /** A bcrypt hash Waline wrote (verified and upgraded at sign-in), or '' when none is kept. */
  readonly passwordHash: string;
  /** True when the source had a password that is not kept (not bcrypt): the account must reset it. */
  readonly passwordDropped: boolean;
  /** True when the source had a TOTP secret: it is not kept, the account enrols again. */
  readonly totpDropped: boolean;
  /** True when the source bound social sign-ins (`github`, `qq`...): not kept, the account signs in by password. */
  readonly oauthDropped: boolean;
  /** Epoch ms; undefined when unreadable (the account is skipped). */
  readonly createdAt: number | undefined;
  /** A Marginalia account id carried by the source (a Marginalia export): reused as is. */
  readonly ownId?: string;
  /** The external identity a Marginalia export's account was made from: linked again, with no address claim. */
  readonly identity?: { readonly provider: string; readonly subject: string };
  /** What that identity's provider said of the address (a Marginalia export). */
  readonly emailVerified?: boolean;
}

/** Reading counters of one page as one source row holds them. */
export interface SourceCounter {
  readonly ref: string;
  /** The page key as the source stored it. */
  readonly rawUrl: string;
  /** The page key the widget will ask for. */
  readonly url: string;
  readonly counts: Partial<Record<CounterName, number>>;
}

/** What a format reader found in its files. */
export interface ParsedSource {
  readonly format: SourceFormat;
  readonly comments: SourceComment[];
  readonly counters: SourceCounter[];
  /** Registered users (Waline's `Users`); absent for formats without accounts. */
  readonly accounts?: SourceAccount[];
  /** Records not read at all, with the reason. */
  readonly skipped: { ref: string; reason: string }[];
  /** What the source had that the model cannot hold, or assumptions made (time zone). */
  readonly notes: string[];
  /** A Marginalia export: its keys are those the widget asked Marginalia for, restored as they are. */
  readonly ownExport?: boolean;
}

/** One input file (or one member of an archive), decoded to text. */
export interface InputFile {
  readonly name: string;
  readonly text: string;
}

/**
 * An input file left on disk and read as a stream each time it is opened: an XML export, whose size
 * has no bound (a Disqus forum's runs to hundreds of MB), so it is never held whole.
 */
export interface StreamedFile {
  readonly name: string;
  /** Its bytes, gunzipped when the file is compressed; a damaged archive fails naming the file. */
  open(): AsyncIterable<Uint8Array>;
}

/** A file the readers take: text in memory, or a stream from disk. */
export type Input = InputFile | StreamedFile;

/** Options every reader gets. */
export interface ReadOptions {
  /** IANA zone of naive timestamps (Waline SQLite/MySQL exports); UTC by default. */
  readonly sourceTimezone: string;
}

/** A file that cannot be read: names the file, the record or line, and the rule broken. */
export class BadInputError extends Error {}
