/**
 * The five load cases, the same requests the real Waline server (@waline/vercel 1.39.3, SQLite, one
 * worker) was measured with, and its figures: autocannon, 50 connections, 10 s after a 2 s warm-up.
 * Requests per second and latencies are from that run of Waline alone; CPU per request is from the later
 * side-by-side run that issue 16 quotes (Waline's whole process tree with SQLite, 3 alternating rounds,
 * the same seed and cases), the figure Marginalia's CPU is held against.
 */
import { commentText, seeded, userAgent } from './seed.js';

/** Waline's figures for one case. */
export interface WalineFigures {
  /** Absent where only the side-by-side run's CPU figure is known. */
  readonly requestsPerSecond?: number;
  readonly p50Ms?: number;
  readonly p99Ms?: number;
  readonly cpuMsPerRequest: number;
}

/** One request, sent again and again under load. */
export interface LoadCase {
  readonly name: string;
  readonly description: string;
  readonly method: 'GET' | 'POST';
  /** Path and query, as the v3 widget sends them. */
  readonly target: string;
  readonly body?: unknown;
  /**
   * `uncached`: sent to a second server with LIST_CACHE_MS=0, so that every request reads DynamoDB. The
   * deployed default (a warm instance reuses what it read for a second) is what the other cases meet.
   */
  readonly server?: 'uncached';
  /** The pageview case: the counter is read before and after, to count lost updates. */
  readonly pageviewCounter?: true;
  /** Each request's body is made unique (autocannon's `[<id>]`): a second copy would be refused as a duplicate. */
  readonly uniqueBody?: true;
  readonly waline: WalineFigures;
}

const query = (parameters: Record<string, string>) => new URLSearchParams(parameters).toString();

const list30: LoadCase = {
  name: 'list-30',
  description: 'GET list of a path with 30 root comments (page 1, pageSize 10)',
  method: 'GET',
  target: `/api/comment?${query({ path: seeded.listPath, pageSize: '10', page: '1', lang: 'en-US', sortBy: 'insertedAt_desc' })}`,
  waline: { requestsPerSecond: 89, p50Ms: 493, p99Ms: 2693, cpuMsPerRequest: 22.7 },
};

const recent: LoadCase = {
  name: 'recent',
  description: 'GET recent, count 10',
  method: 'GET',
  target: `/api/comment?${query({ type: 'recent', count: '10', lang: 'en-US' })}`,
  waline: { requestsPerSecond: 82, p50Ms: 520, p99Ms: 4812, cpuMsPerRequest: 24.0 },
};

/** The same request, every time read from DynamoDB. */
const uncached = (loadCase: LoadCase): LoadCase => ({
  ...loadCase,
  name: `${loadCase.name} uncached`,
  description: `${loadCase.description}, with the list cache off`,
  server: 'uncached',
});

/** The cases, in the order they run. */
export const loadCases: readonly LoadCase[] = [
  list30,
  uncached(list30),
  {
    name: 'count',
    description: 'GET count of one url',
    method: 'GET',
    target: `/api/comment?${query({ type: 'count', url: seeded.listPath, lang: 'en-US' })}`,
    waline: { requestsPerSecond: 1929, p50Ms: 23, p99Ms: 64, cpuMsPerRequest: 0.61 },
  },
  recent,
  uncached(recent),
  {
    name: 'article-get3',
    description: 'GET reading counts of 3 paths',
    method: 'GET',
    target: `/api/article?${query({ path: seeded.readingPaths.join(','), type: 'time', lang: 'en-US' })}`,
    waline: { requestsPerSecond: 2689, p50Ms: 16, p99Ms: 40, cpuMsPerRequest: 0.5 },
  },
  {
    name: 'article-post',
    description: 'POST a pageview increment',
    method: 'POST',
    target: `/api/article?${query({ lang: 'en-US' })}`,
    body: { path: seeded.pageviewPath, type: 'time', action: 'inc' },
    pageviewCounter: true,
    waline: { requestsPerSecond: 250, p50Ms: 164, p99Ms: 643, cpuMsPerRequest: 1.71 },
  },
  {
    name: 'comment-post',
    description: 'POST a new comment: a few hundred bytes of markdown, a new text each time',
    method: 'POST',
    target: `/api/comment?${query({ lang: 'en-US' })}`,
    body: {
      url: seeded.postPath,
      comment: `Load [<id>]: ${commentText(0)}`,
      nick: 'Loader',
      mail: 'loader@example.com',
      link: 'https://loader.example.com',
      ua: userAgent,
    },
    uniqueBody: true,
    // The side-by-side run gave Waline's CPU per request (and Marginalia 1.01x its requests per second).
    waline: { cpuMsPerRequest: 11.6 },
  },
];

/** Waline's other figures, for the report. */
export const walineNotes = {
  /** Of 2,504 accepted pageview POSTs, the counter rose by 114. */
  acceptedPageviewPosts: 2504,
  counterRise: 114,
  idleMemoryMiB: 238,
} as const;
