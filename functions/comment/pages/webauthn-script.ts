/**
 * Browser code around `navigator.credentials.create/get` for the pages that use passkeys (profile-page.ts,
 * login-page.ts): WebAuthn takes and gives ArrayBuffers, the server (`@simplewebauthn/server`) sends and reads
 * base64url JSON. Written here by hand rather than served from `@simplewebauthn/browser`: the conversions are a
 * few lines, and they stay inside the page's one nonce-bearing script, so the strict policy (page-shell.ts) needs
 * no script route or source of its own.
 *
 * It defines `passkeysSupported`, `createPasskey(optionsJson)` and `getPasskey(optionsJson)`, the last two
 * answering the credential as the JSON the server reads (`PublicKeyCredential.toJSON()`'s shape).
 */
export const webauthnScript = String.raw`
const passkeysSupported = typeof window.PublicKeyCredential === 'function' && !!navigator.credentials;
const fromBase64url = (text) => {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4);
  return Uint8Array.from(atob(base64), (character) => character.charCodeAt(0)).buffer;
};
const toBase64url = (buffer) => {
  let binary = '';
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};
const withIds = (list) => (list || []).map((item) => ({ ...item, id: fromBase64url(item.id) }));
const credentialJson = (credential, response) => ({
  id: credential.id,
  rawId: toBase64url(credential.rawId),
  type: credential.type,
  ...(typeof credential.authenticatorAttachment === 'string'
    ? { authenticatorAttachment: credential.authenticatorAttachment } : {}),
  response,
});
const createPasskey = async (options) => {
  const credential = await navigator.credentials.create({ publicKey: {
    ...options,
    challenge: fromBase64url(options.challenge),
    user: { ...options.user, id: fromBase64url(options.user.id) },
    excludeCredentials: withIds(options.excludeCredentials),
  } });
  const { response } = credential;
  return credentialJson(credential, {
    clientDataJSON: toBase64url(response.clientDataJSON),
    attestationObject: toBase64url(response.attestationObject),
    transports: typeof response.getTransports === 'function' ? response.getTransports() : [],
  });
};
const getPasskey = async (options) => {
  const credential = await navigator.credentials.get({ publicKey: {
    ...options,
    challenge: fromBase64url(options.challenge),
    allowCredentials: withIds(options.allowCredentials),
  } });
  const { response } = credential;
  return credentialJson(credential, {
    clientDataJSON: toBase64url(response.clientDataJSON),
    authenticatorData: toBase64url(response.authenticatorData),
    signature: toBase64url(response.signature),
    userHandle: response.userHandle ? toBase64url(response.userHandle) : '',
  });
};
`;
