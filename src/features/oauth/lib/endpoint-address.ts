const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The rule the `oauth` function applies to an address override: https, or plain http to this
 * machine only (a local test server). Returns an error text, or null when the address is fine.
 */
export function endpointAddressError(address: string): string | null {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return 'Enter a full address, starting with https://';
  }
  if (url.username || url.password) return 'The address must not contain a user name or password';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return 'The address must start with https://';
}
