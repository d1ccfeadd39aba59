/** The form of an address that caps, suppressions, confirmations and accounts key on (domain/normalize-address.ts). */
export { normalizeAddress } from '../domain/normalize-address.js';
