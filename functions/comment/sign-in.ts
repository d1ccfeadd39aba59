import { verifyPassword } from '../shared/auth/password.js';
import { signToken } from '../shared/auth/token.js';
import { AppError } from '../shared/domain/errors.js';
import { hashIp } from '../shared/domain/hashing.js';
import { translate } from '../shared/domain/messages.js';
import { presentUser } from '../shared/domain/present-user.js';
import * as z from '../shared/domain/zod.js';
import { envelope } from '../shared/http/envelope.js';
import type { Router } from '../shared/http/http-function.js';
import { parseInput } from '../shared/http/request.js';
import type { Services } from '../shared/services.js';

const signInBodySchema = z.object({
  email: z.email().check(z.maxLength(254)),
  password: z.string().check(z.minLength(1), z.maxLength(1024)),
});

/** Sign-in attempts one IP may make per window. */
const attemptsPerWindow = 10;
const windowMs = 15 * 60 * 1000;

/** A hash no password matches, verified for unknown accounts so their timing matches known ones. */
const decoyHash = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/**
 * `POST /api/token {email, password}`: signs an administrator in and answers Waline's user shape
 * with a signed token. Attempts are counted per IP and window, so passwords cannot be guessed fast.
 */
export function createSignIn(services: Services): Router {
  const { admins, config, now, presentation } = services;
  return async (request) => {
    const { email, password } = parseInput(signInBodySchema, request.jsonBody(), request.lang);
    const secret = await services.tokenSecret();
    if (!secret) throw new AppError('forbidden', translate(request.lang, 'signInDisabled'));

    const time = now();
    const window = Math.floor(time / windowMs);
    const ipHash = hashIp(config.IP_HASH_SALT, request.sourceIp);
    const attempts = await admins.countSignInAttempt(
      ipHash,
      window,
      Math.ceil(((window + 2) * windowMs) / 1000),
    );
    if (attempts > attemptsPerWindow) {
      const minutes = Math.ceil(((window + 1) * windowMs - time) / 60_000);
      throw new AppError('rate_limited', translate(request.lang, 'tooManySignIns', { minutes }));
    }

    const account = await admins.find(email);
    const valid = await verifyPassword(password, account?.passwordHash ?? decoyHash);
    if (!account || !valid) throw new AppError('unauthorized', translate(request.lang, 'wrongCredentials'));

    const token = signToken(secret, {
      sub: account.id,
      email: account.email,
      exp: Math.floor(time / 1000) + config.TOKEN_TTL_HOURS * 3600,
    });
    return envelope({ ...presentUser(account, presentation.avatarFor), token });
  };
}
