import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A WebAuthn authenticator in software for tests without a browser: one ES256 key pair per credential, `none`
 * attestation, user presence and verification always set, a sign counter it keeps (or is told). It answers the
 * options a server hands out as a browser would (`PublicKeyCredential.toJSON()`), for the origin it is given.
 */

/** The CBOR values the authenticator writes: unsigned and negative integers, byte and text strings, maps. */
type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  const bytes = Buffer.alloc(3);
  bytes[0] = (major << 5) | 25;
  bytes.writeUInt16BE(length, 1);
  return bytes;
}

/** Encodes `value` as CBOR (RFC 8949), enough for a COSE key and an attestation object. */
function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  return Buffer.concat([
    head(5, value.size),
    ...[...value].flatMap(([key, item]) => [cbor(key), cbor(item)]),
  ]);
}

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const counterBytes = (counter: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(counter);
  return bytes;
};
/** UP (user present) and UV (user verified); AT (attested credential data) at registration. */
const flags = { signIn: 0x05, register: 0x45 } as const;

/** A credential the authenticator made. */
export interface SoftwareCredential {
  readonly id: string;
  readonly userHandle: string;
  readonly privateKey: KeyObject;
  counter: number;
}

/** The options of `POST /api/passkey/options` as far as the authenticator reads them. */
interface CreationOptions {
  readonly challenge: string;
  readonly rp: { readonly id?: string };
  readonly user: { readonly id: string };
}

/** Makes credentials and answers challenges for `origin` (`https://<rp id>` or `http://localhost:<port>`). */
export function createSoftwareAuthenticator(origin: string) {
  const clientData = (type: string, challenge: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
  const rpIdOf = (rpId: string | undefined) => rpId ?? new URL(origin).hostname;

  return {
    /** Answers registration options with a new credential, as `navigator.credentials.create` would. */
    create(options: CreationOptions, rpId = rpIdOf(options.rp.id)) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const coseKey = new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]);
      const credentialId = randomBytes(16);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      const authData = Buffer.concat([
        sha256(rpId),
        Buffer.from([flags.register]),
        counterBytes(0),
        Buffer.alloc(16),
        idLength,
        credentialId,
        cbor(coseKey),
      ]);
      const attestationObject = cbor(
        new Map<Cbor, Cbor>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]),
      );
      const id = credentialId.toString('base64url');
      const credential: SoftwareCredential = { id, userHandle: options.user.id, privateKey, counter: 0 };
      return {
        credential,
        response: {
          id,
          rawId: id,
          type: 'public-key',
          response: {
            clientDataJSON: clientData('webauthn.create', options.challenge).toString('base64url'),
            attestationObject: attestationObject.toString('base64url'),
            transports: ['internal'],
          },
        },
      };
    },

    /**
     * Answers sign-in options with `credential`, its counter one higher (or `counter` as given: a clone's), as
     * `navigator.credentials.get` would.
     */
    get(
      credential: SoftwareCredential,
      options: { readonly challenge: string; readonly rpId?: string },
      counter = credential.counter + 1,
    ) {
      credential.counter = counter;
      const authenticatorData = Buffer.concat([
        sha256(rpIdOf(options.rpId)),
        Buffer.from([flags.signIn]),
        counterBytes(counter),
      ]);
      const clientDataJSON = clientData('webauthn.get', options.challenge);
      const signature = sign(
        'sha256',
        Buffer.concat([authenticatorData, sha256(clientDataJSON)]),
        credential.privateKey,
      );
      return {
        id: credential.id,
        rawId: credential.id,
        type: 'public-key',
        response: {
          clientDataJSON: clientDataJSON.toString('base64url'),
          authenticatorData: authenticatorData.toString('base64url'),
          signature: signature.toString('base64url'),
          userHandle: credential.userHandle,
        },
      };
    },
  };
}
