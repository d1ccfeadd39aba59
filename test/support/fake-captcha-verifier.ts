import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake answers: a JSON answer (200 unless `status`), a raw body, or never (`hang`). */
export type FakeVerdict =
  | { readonly json: unknown; readonly status?: number }
  | { readonly raw: string; readonly status: number }
  | 'hang';

/** A siteverify stand-in on 127.0.0.1 (TURNSTILE_VERIFY_URL, RECAPTCHA_VERIFY_URL point at it in tests). */
export interface FakeCaptchaVerifier {
  /** `http://127.0.0.1:<port>/turnstile`: Turnstile's siteverify. */
  readonly turnstileUrl: string;
  /** `http://127.0.0.1:<port>/recaptcha`: reCAPTCHA's siteverify. */
  readonly recaptchaUrl: string;
  /** Every question asked, in order: the path and the form fields. */
  readonly questions: { readonly path: string; readonly form: Record<string, string> }[];
  /** What the next questions are answered with; a Turnstile pass on `blog.example` until set. */
  answerWith(verdict: FakeVerdict | ((form: Record<string, string>) => FakeVerdict)): void;
  close(): Promise<void>;
}

/** A pass as Turnstile words it, for `hostname`. */
export const turnstilePass = (hostname = 'blog.example') => ({
  json: {
    success: true,
    'error-codes': [],
    challenge_ts: '2026-11-29T08:00:00.000Z',
    hostname,
    action: 'social',
  },
});

/** Starts the fake on an ephemeral port; stop it with close() (hanging questions are cut off). */
export async function startFakeCaptchaVerifier(): Promise<FakeCaptchaVerifier> {
  const questions: FakeCaptchaVerifier['questions'] = [];
  let verdict: FakeVerdict | ((form: Record<string, string>) => FakeVerdict) = turnstilePass();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      questions.push({ path: request.url ?? '', form });
      const answer = typeof verdict === 'function' ? verdict(form) : verdict;
      if (answer === 'hang') return;
      if ('raw' in answer) {
        response.writeHead(answer.status, { 'content-type': 'text/html' }).end(answer.raw);
        return;
      }
      response
        .writeHead(answer.status ?? 200, { 'content-type': 'application/json' })
        .end(JSON.stringify(answer.json));
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    turnstileUrl: `${base}/turnstile`,
    recaptchaUrl: `${base}/recaptcha`,
    questions,
    answerWith: (next) => {
      verdict = next;
    },
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}
