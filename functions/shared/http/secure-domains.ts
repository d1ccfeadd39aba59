/**
 * Waline's `SECURE_DOMAINS` entries as origins: a bare host (`blog.example`, Waline's form) is its https
 * origin; an entry with a scheme is taken as an origin as it is, for the origin rules to check.
 */
export function originsFromSecureDomains(domains: readonly string[]): string[] {
  return domains.map((domain) => (/^[a-z][a-z0-9+.-]*:\/\//i.test(domain) ? domain : `https://${domain}`));
}
