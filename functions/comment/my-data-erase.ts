import type { Config } from '../shared/config.js';
import { AppError } from '../shared/domain/errors.js';
import { translate } from '../shared/domain/messages.js';
import { newUlid } from '../shared/domain/new-ulid.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import type { HashAddress } from '../shared/notify/address-hash.js';
import type { AccountLimits } from '../shared/table/account-limits.js';
import type { AccountRepository } from '../shared/table/account-repository.js';
import type { ModerationRepository } from '../shared/table/moderation-repository.js';
import type { EraseJob, MyDataStore } from '../shared/table/my-data-store.js';
import { accountLinkHash, claimAccountLink } from './confirm-account.js';
import { authorKeysOf, createOwnership } from './my-data-ownership.js';
import type { DataSubject, ResolveDataSubject } from './my-data-subject.js';

/** Feed entries taken per round of an erase. */
const entriesPerRound = 25;

/** Accounts that carry the address taken it off per round. */
const contactsPerRound = 25;

/**
 * How long one call keeps starting rounds (Lambda gives the comment function 10 s): past it, the call answers
 * `done: false` with what it did, and the next call (the page sends it at once) goes on where it stopped.
 */
export const eraseCallBudgetMs = 5000;

/** Threads whose comments changed while being erased, tolerated in one call before it stops (and is called again). */
const maxConflicts = 3;

/** What the erase route takes. */
export interface MyDataEraseDependencies {
  readonly subjectOf: ResolveDataSubject;
  readonly store: MyDataStore;
  readonly moderation: Pick<ModerationRepository, 'eraseInThread'>;
  readonly accounts: Pick<AccountRepository, 'remove' | 'forgetContact'>;
  readonly limits: Pick<AccountLimits, 'claimLink'>;
  readonly hashAddress: HashAddress;
  readonly config: Pick<Config, 'IP_HASH_SALT' | 'ERASE_WITH_REPLIES'>;
  readonly now: () => number;
}

/** The key an erase's progress is kept under: the address's hash, or (an account without one) its id. */
const jobKeyOf = (subject: DataSubject) => subject.addressHash ?? `account-${subject.account?.id ?? ''}`;

/**
 * `DELETE /api/my-data`, with a data link's token (once: the link is recorded as used first) or a sign-in token as
 * the Bearer: erases everything stored for the address (and the account). Its comments are found through their
 * feed entries (never a Scan), thread by thread: one nobody else answered is deleted; one others answered stays
 * for them, as the placeholder or anonymised (ERASE_WITH_REPLIES), in the moderation repository's transactions,
 * so the page, site and level counters stay exact. Then the address's suppressions, confirmations and trust mark,
 * its level counter (and what the wall shows of it), and its account with its claim (not an administrator's,
 * whom `npm run admin` removes, nor a banned one's, whose ban stands) go; accounts made from an identity that carry
 * the address without a claim lose it (their sign-in stays).
 *
 * Bounded: a call starts rounds of 25 entries for 5 s, then answers `{done: false}`; the erase's progress is kept
 * (`ERASE#<hash>`), and the same link (for its hour), a new link, or the account goes on with it. Each call is one
 * entry of the administrators' log.
 */
export function createMyDataErase(dependencies: MyDataEraseDependencies): Router {
  const { subjectOf, store, moderation, accounts, hashAddress, config, now } = dependencies;
  return async (request) => {
    const subject = await subjectOf(request.authorization, request.lang);
    const started = now();
    const jobKey = jobKeyOf(subject);
    const previous = await store.eraseJob(jobKey);
    let tokenHash: string | undefined;
    if (subject.via === 'link' && subject.token) {
      tokenHash = accountLinkHash(config.IP_HASH_SALT, subject.token);
      // The link that started a running erase goes on with it; any other link is used once, to start or resume one.
      const goesOn = previous?.state === 'running' && previous.tokenHash === tokenHash;
      if (!goesOn && !(await claimAccountLink(dependencies, subject.token, started))) {
        throw new AppError('invalid_input', translate(request.lang, 'dataLinkUsed'), {
          token: 'was used to erase already, or has expired: ask for a new link',
        });
      }
    }
    const carried = previous?.state === 'running' ? previous : undefined;
    let job: EraseJob = {
      state: 'running',
      ...(tokenHash ? { tokenHash } : {}),
      startedAt: carried?.startedAt ?? started,
      removed: carried?.removed ?? 0,
      kept: carried?.kept ?? 0,
      contacts: carried?.contacts ?? 0,
    };
    await store.saveEraseJob(jobKey, job, started);

    const owns = createOwnership(subject, hashAddress);
    let conflicts = 0;
    let finished = true;
    for (const authorKey of authorKeysOf(subject)) {
      for (;;) {
        if (now() - started > eraseCallBudgetMs || conflicts >= maxConflicts) {
          finished = false;
          break;
        }
        const { entries } = await store.feedPage(authorKey, undefined, entriesPerRound);
        if (entries.length === 0) break;
        const threads = new Map(entries.map((entry) => [`${entry.url}\n${entry.rid ?? entry.id}`, entry]));
        const done: string[] = [];
        for (const entry of threads.values()) {
          const rootId = entry.rid ?? entry.id;
          const outcome = await moderation.eraseInThread(
            { url: entry.url, id: rootId },
            owns,
            config.ERASE_WITH_REPLIES,
          );
          if (outcome === 'conflict') {
            conflicts++;
            continue;
          }
          job = { ...job, removed: job.removed + outcome.removed, kept: job.kept + outcome.kept };
          // Every entry of this thread is done: erased with its comment, or one that named nothing of the subject's.
          done.push(
            ...entries.filter((e) => e.url === entry.url && (e.rid ?? e.id) === rootId).map((e) => e.id),
          );
        }
        await store.dropFeedEntries(authorKey, done);
      }
      if (!finished) break;
    }

    // Accounts made from an identity that carry the address (without a claim) keep their sign-in, not it; a few at a
    // time, within the call's budget (what is left goes on at the next call).
    while (finished && subject.address) {
      if (now() - started > eraseCallBudgetMs) {
        finished = false;
        break;
      }
      const round = await accounts.forgetContact(subject.address, contactsPerRound, subject.account?.id);
      job = { ...job, contacts: job.contacts + round.forgotten };
      if (!round.more) break;
    }

    let suppressions = 0;
    let accountRemoved = false;
    if (finished) {
      if (subject.addressHash) {
        suppressions = await store.eraseMailState(subject.addressHash);
        await store.dropAuthorCount(`mail:${subject.addressHash}`);
      }
      const { account } = subject;
      if (account && account.type === 'guest') {
        accountRemoved = await accounts.remove(account.id);
        await store.dropAuthorCount(`user:${account.id}`);
      }
      job = { ...job, state: 'done' };
    }
    const at = now();
    await store.saveEraseJob(jobKey, job, at);
    const counts = {
      removed: job.removed,
      kept: job.kept,
      suppressions,
      account: accountRemoved ? 1 : 0,
      contacts: job.contacts,
    };
    await store.recordRequest({
      id: newUlid(at),
      kind: 'erase',
      at,
      hashPrefix: subject.addressHash?.slice(0, 8) ?? '',
      via: subject.via,
      outcome: finished ? 'done' : conflicts >= maxConflicts ? 'conflict' : 'running',
      counts,
    });
    return envelope({ done: finished, ...counts });
  };
}
