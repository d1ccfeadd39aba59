import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createSubmitMarksReader } from '../../../../../functions/shared/table/submit-marks.js';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const mock = mockClient(client);
const read = createSubmitMarksReader(client, 't');
const query = { url: '/p', contentHash: 'h', ipHash: 'ip', mail: 'ann@example.com' };
const requests = () => mock.commandCalls(BatchGetCommand).map((call) => call.args[0].input.RequestItems?.t);

describe('createSubmitMarksReader', () => {
  afterEach(() => mock.reset());

  it('reads the trust mark and the page counters in the same BatchGetItem as the other marks, when asked', async () => {
    mock.on(BatchGetCommand).resolves({
      Responses: {
        t: [
          { pk: 'TRUST#th', sk: 'TRUST' },
          { pk: 'URL#/p', sk: 'PAGE', firstCommentAt: 1234 },
        ],
      },
    });

    const marks = await read({ ...query, trustHash: 'th', withFirstCommentAt: true });

    expect(marks).toEqual({
      lastPostAt: undefined,
      duplicate: false,
      adminMail: false,
      trusted: true,
      firstCommentAt: 1234,
    });
    expect(requests()).toHaveLength(1);
    expect(requests()[0]?.Keys).toEqual([
      { pk: 'IP#ip', sk: 'RATE' },
      { pk: 'URL#/p', sk: 'DUP#h' },
      { pk: 'EMAIL#ann@example.com', sk: 'USER' },
      { pk: 'TRUST#th', sk: 'TRUST' },
      { pk: 'URL#/p', sk: 'PAGE' },
    ]);
    expect(Object.values(requests()[0]?.ExpressionAttributeNames ?? {})).toContain('firstCommentAt');
  });

  it('reads neither when not asked, and finds an article without a first-comment time open', async () => {
    mock.on(BatchGetCommand).resolves({ Responses: { t: [{ pk: 'URL#/p', sk: 'PAGE', comments: 3 }] } });

    const plain = await read(query);
    const withoutTime = await read({ ...query, withFirstCommentAt: true });

    expect(requests()[0]?.Keys).toHaveLength(3);
    expect(plain).toMatchObject({ trusted: false, firstCommentAt: undefined });
    expect(withoutTime).toMatchObject({ trusted: false, firstCommentAt: undefined });
  });

  it("says the mail is an administrator's only when its claim is an administrator's account's", async () => {
    const claimOf = (type: string) => ({
      Responses: { t: [{ pk: 'EMAIL#ann@example.com', sk: 'USER', type }] },
    });
    mock.on(BatchGetCommand).resolvesOnce(claimOf('administrator')).resolvesOnce(claimOf('guest'));

    const administrator = await read({ ...query, mail: 'Ann+blog@Example.com' });
    const guest = await read(query);

    expect([administrator.adminMail, guest.adminMail]).toEqual([true, false]);
    // Normalised as the claim is: a tag or a capital does not hide an administrator's address.
    expect(requests()[0]?.Keys).toContainEqual({ pk: 'EMAIL#ann@example.com', sk: 'USER' });
  });
});
