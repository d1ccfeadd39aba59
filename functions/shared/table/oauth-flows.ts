import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { attributes, entities, keys } from './keys.js';

/**
 * A sign-in with an OpenID Connect issuer or GitHub under way (issue 28), between the redirect to the provider and
 * its callback. Its `state` is the item's key (as a hash); the rest never leaves the server.
 */
export interface OAuthFlow {
  /** The provider's key (`oidc-1`, `github`: sign-in-provider-settings.ts). */
  readonly provider: string;
  /** The issuer (or GitHub's URL) the flow began with: a callback after the owner changed it is refused. */
  readonly issuer: string;
  readonly nonce: string;
  /** PKCE's code verifier: only this server can exchange the code. */
  readonly codeVerifier: string;
  /** The widget's `?redirect=` the login page passed on, already checked against the configured origins. */
  readonly redirect?: string;
  /** The login page's "remember me", which the widget reads from the user it is handed. */
  readonly remember: boolean;
  /** A hash of the cookie of the browser that began the flow: only that browser may finish it. */
  readonly browserHash: string;
  /** Milliseconds since the epoch after which the callback is refused. */
  readonly validUntil: number;
}

/** The flows under way, each taken at most once. */
export interface OAuthFlows {
  /** Stores a flow under its state's hash. */
  begin(stateHash: string, flow: OAuthFlow): Promise<void>;
  /**
   * Takes (deletes and answers) the flow of `stateHash` when it is the browser's of `browserHash` and still valid
   * at `now`; undefined otherwise, and a flow of another browser stays where it is.
   */
  take(stateHash: string, browserHash: string, now: number): Promise<OAuthFlow | undefined>;
}

/** The bounds of what a flow stores (the routes check them first; these keep a bad caller from a big item). */
export const oauthFlowLimits = { redirectChars: 2000, valueChars: 300 } as const;

/** Builds the flow store on `client` and `tableName`. */
export function createOAuthFlows(client: DynamoDBDocumentClient, tableName: string): OAuthFlows {
  return {
    async begin(stateHash, flow) {
      const bounded = [flow.provider, flow.issuer, flow.nonce, flow.codeVerifier, flow.browserHash];
      if (bounded.some((value) => value.length > oauthFlowLimits.valueChars)) {
        throw new Error('an oauth flow value is longer than its bound');
      }
      if ((flow.redirect?.length ?? 0) > oauthFlowLimits.redirectChars) {
        throw new Error('an oauth flow redirect is longer than its bound');
      }
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.oauthFlow(stateHash),
            entity: entities.oauthFlow,
            provider: flow.provider,
            issuer: flow.issuer,
            nonce: flow.nonce,
            codeVerifier: flow.codeVerifier,
            ...(flow.redirect ? { redirect: flow.redirect } : {}),
            remember: flow.remember,
            browserHash: flow.browserHash,
            validUntil: flow.validUntil,
            // TTL removes a flow nobody finished (in seconds, rounded up: never before it expires).
            [attributes.expiresAt]: Math.ceil(flow.validUntil / 1000),
          },
          // A new random state: an item already there would be a collision, never overwritten.
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },

    async take(stateHash, browserHash, now) {
      try {
        const output = await client.send(
          new DeleteCommand({
            TableName: tableName,
            Key: keys.oauthFlow(stateHash),
            // One delete both checks and uses the flow: of two callbacks with one state, only one gets it back.
            // A flow of another browser, or past its time (TTL deletes late), is refused and left alone.
            ConditionExpression: 'attribute_exists(pk) AND browserHash = :browser AND validUntil > :now',
            ExpressionAttributeValues: { ':browser': browserHash, ':now': now },
            ReturnValues: 'ALL_OLD',
          }),
        );
        return toFlow(output.Attributes);
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return undefined;
        throw error;
      }
    },
  };
}

function toFlow(item: Record<string, unknown> | undefined): OAuthFlow | undefined {
  if (!item) return undefined;
  const text = (name: string) => (typeof item[name] === 'string' ? (item[name] as string) : '');
  return {
    provider: text('provider'),
    issuer: text('issuer'),
    nonce: text('nonce'),
    codeVerifier: text('codeVerifier'),
    ...(text('redirect') ? { redirect: text('redirect') } : {}),
    remember: item.remember === true,
    browserHash: text('browserHash'),
    validUntil: Number(item.validUntil) || 0,
  };
}
