/**
 * The DynamoDB requests of `npm run migrate`, and nothing else of it. Each write to a comment or to a
 * page's counters holds only if the item is still as the migration read it, so a rerun, or a second run
 * beside the first, never writes twice nor over a change it did not see.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { layoutVersion } from '../../functions/shared/table/table-definition.js';
import { queryArticleComments } from '../../functions/shared/table/article-comments.js';
import { attributes, entities, type Key, keys } from '../../functions/shared/table/keys.js';
import { projection } from '../../functions/shared/table/projection.js';
import { transactWrite } from '../../functions/shared/table/transact.js';
import { countComments, type DerivedAttributes, type PageCounts, pageCountNames } from './plan-comment.js';

type Item = Record<string, unknown>;

/** What a conditional change came to. */
export type ChangeOutcome =
  /** Written. */
  | 'done'
  /** The item changed (or went) since it was read: nothing written; read it again. */
  | 'changed'
  /** Something is already at the new key: nothing written. */
  | 'taken';

/** The counters of a page as stored: undefined where a counter is missing. */
export type StoredPageCounts = { readonly [name in keyof PageCounts]: number | undefined };

/** The layout mark of the site item. */
export interface SiteState {
  /** False when nothing ever counted a comment (a new or empty table). */
  readonly exists: boolean;
  readonly layout: number | undefined;
}

/**
 * A condition that holds while the item at its key has exactly the attributes of `item` (as a Scan or a
 * GetItem returned it): any write in between, a like, an edit, a status change, refuses the change.
 */
function asRead(item: Item) {
  const names: Record<string, string> = { '#pk': attributes.pk };
  const values: Record<string, unknown> = {};
  const terms = ['attribute_exists(#pk)'];
  Object.entries(item).forEach(([name, value], i) => {
    if (name === attributes.pk || name === attributes.sk) return;
    names[`#a${i}`] = name;
    values[`:a${i}`] = value;
    terms.push(`#a${i} = :a${i}`);
  });
  return {
    ConditionExpression: terms.join(' AND '),
    ExpressionAttributeNames: names,
    ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
  };
}

/** The migration's reads and writes on `tableName`. */
export function createMigrationStore(client: DynamoDBDocumentClient, tableName: string) {
  const keyOf = (item: Item): Key => ({ pk: String(item[attributes.pk]), sk: String(item[attributes.sk]) });

  return {
    /** The item at `key`, read consistently. */
    async read(key: Key): Promise<Item | undefined> {
      return (await client.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true })))
        .Item;
    },

    /**
     * Moves the reply `item` to `to`, whole, with its derived attributes, in one transaction: the new item
     * appears as the old one goes.
     */
    async moveReply(item: Item, to: Key, derived: DerivedAttributes): Promise<ChangeOutcome> {
      const kept = Object.entries(item).filter(([name]) => !derived.remove.includes(name));
      const outcome = await transactWrite(client, {
        TransactItems: [
          {
            Put: {
              TableName: tableName,
              Item: { ...Object.fromEntries(kept), ...to, ...derived.set },
              // Never over another item: a comment already at the new key is reported, not replaced.
              ConditionExpression: 'attribute_not_exists(#pk)',
              ExpressionAttributeNames: { '#pk': attributes.pk },
            },
          },
          // Only the comment as read leaves: a change since the read refuses the whole move.
          { Delete: { TableName: tableName, Key: keyOf(item), ...asRead(item) } },
        ],
      });
      if (outcome.ok) return 'done';
      return outcome.failedConditions.includes(1) ? 'changed' : 'taken';
    },

    /**
     * Sets the derived attributes of the comment `item` (and removes the stale ones), as read: a vote or
     * any change meanwhile refuses it, and the next run derives them afresh.
     */
    async setDerived(item: Item, derived: DerivedAttributes): Promise<ChangeOutcome> {
      const condition = asRead(item);
      const sets = Object.entries(derived.set);
      const names: Record<string, string> = { ...condition.ExpressionAttributeNames };
      const values: Record<string, unknown> = { ...condition.ExpressionAttributeValues };
      const clauses = sets.map(([name, value], i) => {
        names[`#s${i}`] = name;
        values[`:s${i}`] = value;
        // if_not_exists: a like count already there stays (roots-by-like holds only items with one).
        return name === 'like' ? `#s${i} = if_not_exists(#s${i}, :s${i})` : `#s${i} = :s${i}`;
      });
      derived.remove.forEach((name, i) => {
        names[`#r${i}`] = name;
      });
      const removal = derived.remove.map((_, i) => `#r${i}`).join(', ');
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keyOf(item),
            UpdateExpression: `SET ${clauses.join(', ')}${removal ? ` REMOVE ${removal}` : ''}`,
            ConditionExpression: condition.ConditionExpression,
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          }),
        );
        return 'done';
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return 'changed';
        throw error;
      }
    },

    /** The comment counters of page `url`, read consistently. */
    async readPageCounts(url: string): Promise<StoredPageCounts> {
      const output = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: keys.pageCounters(url),
          ConsistentRead: true,
          ...projection(pageCountNames),
        }),
      );
      const value = (name: string) => {
        const stored = output.Item?.[name];
        return typeof stored === 'number' ? stored : undefined;
      };
      return {
        comments: value('comments'),
        roots: value('roots'),
        held: value('held'),
        heldRoots: value('heldRoots'),
      };
    },

    /** Counts the comments of page `url` from its partition (visible and held, read consistently). */
    async countPage(url: string): Promise<PageCounts> {
      const items: Item[] = [];
      const query = { names: ['status', 'rid'], consistent: true };
      for await (const item of queryArticleComments(client, tableName, url, query)) items.push(item);
      return countComments(items);
    },

    /**
     * Sets the comment counters of page `url` to `counts` if they still are `before`: a comment write
     * moves them in the same transaction as the comment, so one between the read and this write refuses it.
     */
    async setPageCounts(url: string, counts: PageCounts, before: StoredPageCounts): Promise<ChangeOutcome> {
      const names: Record<string, string> = { '#entity': 'entity', '#url': 'url' };
      const values: Record<string, unknown> = { ':entity': entities.pageCounters, ':url': url };
      const sets = ['#entity = :entity', '#url = :url'];
      const conditions: string[] = [];
      pageCountNames.forEach((name, i) => {
        names[`#c${i}`] = name;
        values[`:c${i}`] = counts[name];
        sets.push(`#c${i} = :c${i}`);
        const was = before[name];
        if (was === undefined) conditions.push(`attribute_not_exists(#c${i})`);
        else {
          values[`:b${i}`] = was;
          conditions.push(`#c${i} = :b${i}`);
        }
      });
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.pageCounters(url),
            // SET, not ADD: the counts were just taken from the page's comments.
            UpdateExpression: `SET ${sets.join(', ')}`,
            ConditionExpression: conditions.join(' AND '),
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          }),
        );
        return 'done';
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return 'changed';
        throw error;
      }
    },

    /** Whether the site item exists, and the layout it names. */
    async readSite(): Promise<SiteState> {
      const output = await client.send(
        new GetCommand({ TableName: tableName, Key: keys.siteCounters(), ConsistentRead: true }),
      );
      if (!output.Item) return { exists: false, layout: undefined };
      const layout = output.Item[attributes.layout];
      return { exists: true, layout: typeof layout === 'number' ? layout : undefined };
    },

    /** Marks the site item as holding this layout: from then on the functions accept comment writes. */
    async markLayout(): Promise<void> {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.siteCounters(),
          UpdateExpression: 'SET #layout = :layout, #entity = :entity',
          // Never creates the item: a table where nothing was counted needs no mark (the functions take it as new).
          ConditionExpression: 'attribute_exists(#pk)',
          ExpressionAttributeNames: {
            '#layout': attributes.layout,
            '#entity': 'entity',
            '#pk': attributes.pk,
          },
          ExpressionAttributeValues: { ':layout': layoutVersion, ':entity': entities.siteCounters },
        }),
      );
    },
  };
}

/** The migration's store. */
export type MigrationStore = ReturnType<typeof createMigrationStore>;
