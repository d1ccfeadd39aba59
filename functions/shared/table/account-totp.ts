import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { accountAttributes } from '../domain/account.js';
import { keys } from './keys.js';

/**
 * The second factor's part of an account item (`keys.account(id)`): the sealed TOTP secret (`totpSecret`,
 * auth/secret-box.ts), the last accepted step (`totpLastStep`), the recovery codes' keyed hashes
 * (`recoveryHashes`, a string set), and an enrolment waiting for its first code (`totpPendingSecret`,
 * `totpPendingUntil`). Every write is conditional on what the caller checked, so that a code or a recovery code
 * is good once however many requests race with it.
 */

/** The second factor of an account as stored; undefined secret: TOTP is off. */
export interface StoredTotp {
  /** The sealed secret when TOTP is on. */
  readonly secret?: string;
  /** The last step a code was accepted for; -1 when none was. */
  readonly lastStep: number;
  readonly recoveryHashes: readonly string[];
  /** An enrolment waiting for its first code: the sealed secret and until when (ms) it can be confirmed. */
  readonly pending?: { readonly secret: string; readonly until: number };
}

/** How a code proves the second factor in a write: the step of a TOTP code, or a recovery code's hash. */
export type TotpProof = { readonly step: number } | { readonly recoveryHash: string };

/** The conditional writes of the second factor on account items. */
export interface AccountTotpStore {
  /** The second factor of the account `id`, read consistently; undefined when there is no such account. */
  read(id: string): Promise<StoredTotp | undefined>;
  /**
   * Keeps `sealedSecret` as the account's pending enrolment until `until` (ms), replacing any earlier one;
   * false (nothing written) when the account is gone or TOTP is already on.
   */
  startEnrolment(id: string, sealedSecret: string, until: number): Promise<boolean>;
  /**
   * Turns TOTP on with the pending secret `sealedSecret` (the one the caller checked the code against) if it is
   * still pending and unexpired at `now`: the code's `step` becomes the last accepted one, `recoveryHashes` the
   * recovery codes, and the session version grows (tokens signed in without the second factor stop working).
   * Answers the new session version; undefined (nothing written) when the pending secret changed or expired.
   */
  confirmEnrolment(
    id: string,
    sealedSecret: string,
    step: number,
    recoveryHashes: readonly string[],
    now: number,
  ): Promise<number | undefined>;
  /**
   * Spends a proof against the secret `sealedSecret` (the one checked): a TOTP step later than the last accepted
   * one becomes the last, a recovery code's hash is removed. False (nothing written) when another request spent
   * it first, or the secret changed.
   */
  spend(id: string, sealedSecret: string, proof: TotpProof): Promise<boolean>;
  /** Turns TOTP off, spending `proof` in the same write; false as {@link AccountTotpStore.spend}. */
  disable(id: string, sealedSecret: string, proof: TotpProof, now: number): Promise<boolean>;
  /**
   * Turns TOTP off with no proof (an administrator's or the CLI's decision: a lost authenticator, or a rotated
   * token key that no sealed secret opens with any more), removing any pending enrolment too; false when there
   * is no such account.
   */
  reset(id: string, now: number): Promise<boolean>;
}

const a = accountAttributes;

/** The attribute names every expression here uses, as `#name` placeholders. */
const names = {
  '#secret': a.totpSecret,
  '#lastStep': a.totpLastStep,
  '#recovery': a.recoveryHashes,
  '#pending': a.totpPendingSecret,
  '#pendingUntil': a.totpPendingUntil,
};

/** The placeholders of `names` that `expressions` use: DynamoDB refuses a request that names one it does not use. */
const namesUsedIn = (...expressions: string[]) =>
  Object.fromEntries(
    Object.entries(names).filter(([placeholder]) =>
      expressions.some((expression) => new RegExp(`${placeholder}\\b`).test(expression)),
    ),
  );

const asStrings = (value: unknown): string[] =>
  value instanceof Set || Array.isArray(value)
    ? [...(value as Iterable<unknown>)].filter((item) => typeof item === 'string')
    : [];

/** The TOTP part of an account item as stored (the document client reads a string set as a Set). */
export function toStoredTotp(item: Record<string, unknown>): StoredTotp {
  const pending = item[a.totpPendingSecret];
  const until = Number(item[a.totpPendingUntil]);
  const lastStep = item[a.totpLastStep];
  return {
    ...(typeof item[a.totpSecret] === 'string' ? { secret: item[a.totpSecret] as string } : {}),
    lastStep: typeof lastStep === 'number' ? lastStep : -1,
    recoveryHashes: asStrings(item[a.recoveryHashes]),
    ...(typeof pending === 'string' && Number.isFinite(until) ? { pending: { secret: pending, until } } : {}),
  };
}

/** The update expression's part and condition that spend `proof` (see {@link AccountTotpStore.spend}). */
function spending(proof: TotpProof): {
  readonly action: string;
  readonly condition: string;
  readonly values: Record<string, unknown>;
} {
  if ('step' in proof) {
    return {
      action: 'SET #lastStep = :step',
      // Only a later step: of two requests with one code (or a code and an earlier one), one writes, the other is refused.
      condition: '(attribute_not_exists(#lastStep) OR #lastStep < :step)',
      values: { ':step': proof.step },
    };
  }
  return {
    action: 'DELETE #recovery :used',
    // Only while the hash is there: of two requests with one recovery code, the second finds it gone.
    condition: 'contains(#recovery, :hash)',
    values: { ':used': new Set([proof.recoveryHash]), ':hash': proof.recoveryHash },
  };
}

/** Builds the second factor's store on `client` and `tableName`. */
export function createAccountTotpStore(client: DynamoDBDocumentClient, tableName: string): AccountTotpStore {
  /** Sends a conditional update; false when its condition failed (nothing was written). */
  const update = async (input: Omit<UpdateCommandInput, 'TableName'>) => {
    try {
      return await client.send(new UpdateCommand({ TableName: tableName, ...input }));
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  };

  return {
    async read(id) {
      const output = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: keys.account(id),
          ConsistentRead: true,
          ProjectionExpression: 'pk, #secret, #lastStep, #recovery, #pending, #pendingUntil',
          ExpressionAttributeNames: names,
        }),
      );
      return output.Item ? toStoredTotp(output.Item) : undefined;
    },

    async startEnrolment(id, sealedSecret, until) {
      const output = await update({
        Key: keys.account(id),
        UpdateExpression: 'SET #pending = :pending, #pendingUntil = :until',
        // An existing account only (an update would create the item), and never over a secret in force.
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#secret)',
        ExpressionAttributeNames: namesUsedIn('#pending #pendingUntil #secret'),
        ExpressionAttributeValues: { ':pending': sealedSecret, ':until': until },
      });
      return output !== undefined;
    },

    async confirmEnrolment(id, sealedSecret, step, recoveryHashes, now) {
      const output = await update({
        Key: keys.account(id),
        UpdateExpression:
          'SET #secret = :secret, #lastStep = :step, #recovery = :hashes, #updatedAt = :now ' +
          'ADD #sessionVersion :one REMOVE #pending, #pendingUntil',
        // The secret the code was checked against, still pending and unexpired: a newer enrolment (another GET)
        // or an expired one confirms nothing.
        ConditionExpression: '#pending = :secret AND #pendingUntil > :now AND attribute_not_exists(#secret)',
        ExpressionAttributeNames: {
          ...names,
          '#updatedAt': a.updatedAt,
          '#sessionVersion': a.sessionVersion,
        },
        ExpressionAttributeValues: {
          ':secret': sealedSecret,
          ':step': step,
          ':hashes': new Set(recoveryHashes),
          ':now': now,
          ':one': 1,
        },
        ReturnValues: 'UPDATED_NEW',
      });
      return output ? Number(output.Attributes?.[a.sessionVersion]) : undefined;
    },

    async spend(id, sealedSecret, proof) {
      const spend = spending(proof);
      const condition = `#secret = :secret AND ${spend.condition}`;
      const output = await update({
        Key: keys.account(id),
        UpdateExpression: spend.action,
        // The secret the code was checked against is still the one in force (not turned off, not another).
        ConditionExpression: condition,
        ExpressionAttributeNames: namesUsedIn(spend.action, condition),
        ExpressionAttributeValues: { ':secret': sealedSecret, ...spend.values },
      });
      return output !== undefined;
    },

    async disable(id, sealedSecret, proof, now) {
      const spend = spending(proof);
      const output = await update({
        Key: keys.account(id),
        UpdateExpression:
          'SET #updatedAt = :now REMOVE #secret, #lastStep, #recovery, #pending, #pendingUntil',
        // The proof is spent by the condition alone: the attributes it would change are removed anyway.
        ConditionExpression: `#secret = :secret AND ${spend.condition}`,
        ExpressionAttributeNames: { ...names, '#updatedAt': a.updatedAt },
        ExpressionAttributeValues: {
          ':secret': sealedSecret,
          ':now': now,
          ...Object.fromEntries(Object.entries(spend.values).filter(([name]) => name !== ':used')),
        },
      });
      return output !== undefined;
    },

    async reset(id, now) {
      const output = await update({
        Key: keys.account(id),
        UpdateExpression:
          'SET #updatedAt = :now REMOVE #secret, #lastStep, #recovery, #pending, #pendingUntil',
        // Only an account that exists: an UpdateItem on a missing key would create an item.
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { ...names, '#updatedAt': a.updatedAt },
        ExpressionAttributeValues: { ':now': now },
      });
      return output !== undefined;
    },
  };
}
