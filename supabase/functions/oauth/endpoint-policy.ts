import type { FunctionEnv } from '../_shared/function-env.ts';
import type { OAuthProvider } from '../_shared/oauth-providers.ts';

/** The two addresses of a provider an organisation may override, as the settings name them. */
export type EndpointField = 'Authorization URL' | 'Token URL';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** One DNS label, for the `{companyDomain}` placeholder of a catalogue address. */
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';

/** `host` or `host:port` of OAUTH_ALLOWED_HOSTS: a name, an IPv4 address or a bracketed IPv6. */
const ALLOWED_HOST =
  /^(?<name>[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\])(?::(?<port>\d{1,5}))?$/;

interface AllowedHost {
  hostname: string;
  /** Undefined: any port. */
  port: string | undefined;
}

/** The host of a catalogue address, as written (`{companyDomain}.bamboohr.com` stays so). */
function catalogueHost(address: string): string {
  const match = /^https:\/\/([^/?#]+)/.exec(address);
  if (!match) throw new Error(`catalogue address ${address} is not https`);
  return match[1]!.toLowerCase();
}

/** The port a URL connects to, also when it is the scheme's default (which URL leaves out). */
function effectivePort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/**
 * Which addresses the `oauth` function may send a user to (the authorisation address) and post
 * the client secret to (the token address): those on the hosts of the provider's own catalogue
 * entry, over https, and those on the hosts the installation allows (`OAUTH_ALLOWED_HOSTS`,
 * steward.toml `[oauth] allowed_hosts`). Nothing else, whatever an organisation saved: otherwise
 * a master admin could have the client secret, the authorisation code and the tokens posted to a
 * server of their choosing. Plain http only to this machine (a local test authorisation server),
 * and only when that host is allowed.
 */
export class EndpointPolicy {
  private constructor(private readonly allowed: readonly AllowedHost[]) {}

  /**
   * Reads `OAUTH_ALLOWED_HOSTS`: comma-separated `host` (any port) or `host:port` entries. A
   * malformed entry stops the function's start, with its text.
   */
  static fromEnv(env: FunctionEnv): EndpointPolicy {
    const entries = (env.OAUTH_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((entry) => entry.trim().toLowerCase())
      .filter((entry) => entry !== '');
    return new EndpointPolicy(
      entries.map((entry) => {
        const match = ALLOWED_HOST.exec(entry);
        if (!match?.groups) {
          throw new Error(
            `OAUTH_ALLOWED_HOSTS: "${entry}" is not a host name (optionally with :port)`,
          );
        }
        return { hostname: match.groups.name!, port: match.groups.port };
      }),
    );
  }

  /**
   * Why `address` may not serve as the provider's `field`, in words for the master admin who
   * entered it; null when it may.
   */
  problem(provider: OAuthProvider, field: EndpointField, address: string): string | null {
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      return `${field}: Enter a full address, starting with https://`;
    }
    if (url.username || url.password) {
      return `${field}: The address must not contain a user name or password`;
    }
    const secure = url.protocol === 'https:';
    if (!secure && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
      return `${field}: The address must start with https://`;
    }
    if ((secure && this.inCatalogue(provider, url)) || this.isAllowed(url)) return null;
    return `${field}: The address must be on ${this.catalogueHosts(provider).join(' or ')}, or on a host this installation allows`;
  }

  private catalogueHosts(provider: OAuthProvider): string[] {
    const hosts = [provider.authorizeUrl, provider.tokenUrl].map(catalogueHost);
    return [...new Set(hosts)].map((host) => host.replace(/\{[^}]*\}/g, '*'));
  }

  /** On a host of the provider's catalogue entry, on the default port. */
  private inCatalogue(provider: OAuthProvider, url: URL): boolean {
    return [provider.authorizeUrl, provider.tokenUrl].some((address) => {
      const pattern = catalogueHost(address)
        .split(/(\{[^}]*\})/)
        .map((part) => (part.startsWith('{') ? LABEL : part.replace(/[.*+?^$()[\]\\|]/g, '\\$&')))
        .join('');
      return new RegExp(`^${pattern}$`).test(url.host);
    });
  }

  private isAllowed(url: URL): boolean {
    return this.allowed.some(
      (entry) =>
        entry.hostname === url.hostname &&
        (entry.port === undefined || entry.port === effectivePort(url)),
    );
  }
}
