import { GetParameterCommand, ParameterNotFound, SSMClient } from '@aws-sdk/client-ssm';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTokenSecret } from '../../../../../functions/shared/storage/token-secret.js';
import { testConfig } from '../../../../support/test-config.js';

const ssm = mockClient(SSMClient);
const fromParameter = () => createTokenSecret(testConfig({ JWT_SECRET_PARAMETER: '/marginalia/jwt-secret' }));

describe('createTokenSecret', () => {
  beforeEach(() => {
    ssm.reset();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => vi.restoreAllMocks());

  it('reads the SecureString once, decrypted, when JWT_TOKEN is not set', async () => {
    ssm.on(GetParameterCommand).resolves({ Parameter: { Value: 's'.repeat(40) } });
    const secret = fromParameter();

    expect(await secret()).toBe('s'.repeat(40));
    expect(await secret()).toBe('s'.repeat(40));
    expect(ssm.commandCalls(GetParameterCommand)).toHaveLength(1);
    expect(ssm.commandCalls(GetParameterCommand)[0]?.args[0].input).toEqual({
      Name: '/marginalia/jwt-secret',
      WithDecryption: true,
    });
  });

  it('turns sign-in off, without asking again, when the parameter does not exist', async () => {
    ssm.on(GetParameterCommand).rejects(new ParameterNotFound({ message: 'missing', $metadata: {} }));
    const secret = fromParameter();

    expect(await secret()).toBeUndefined();
    expect(await secret()).toBeUndefined();
    expect(ssm.commandCalls(GetParameterCommand)).toHaveLength(1);
  });

  it('refuses a key shorter than 32 characters, and retries after other failures', async () => {
    ssm.on(GetParameterCommand).resolves({ Parameter: { Value: 'short' } });
    expect(await fromParameter()()).toBeUndefined();

    ssm.reset();
    ssm
      .on(GetParameterCommand)
      .rejectsOnce(new Error('throttled'))
      .resolves({ Parameter: { Value: 'k'.repeat(32) } });
    const secret = fromParameter();
    await expect(secret()).rejects.toThrow('throttled');
    expect(await secret()).toBe('k'.repeat(32));
  });

  it('uses JWT_TOKEN without calling SSM when it is set', async () => {
    expect(await createTokenSecret(testConfig({ JWT_TOKEN: 'j'.repeat(32) }))()).toBe('j'.repeat(32));
    expect(ssm.calls()).toHaveLength(0);
  });
});
