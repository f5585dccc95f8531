import proxyaddr from 'proxy-addr';
import { stringListSetting, type SettingSource } from './values.ts';

/**
 * steward.toml `[server] trusted_proxies` (`STEWARD_TRUSTED_PROXIES`): each entry checked as
 * proxy-addr, which reads it for every request (server/http/client-address.ts), will read it,
 * so that a typo stops the start-up instead of trusting nobody, or the wrong network.
 */
export function trustedProxiesSetting(setting: SettingSource): string[] {
  const proxies = stringListSetting(setting, []);
  for (const proxy of proxies) {
    try {
      proxyaddr.compile(proxy);
    } catch {
      const name = setting.env?.vars[setting.env.name]
        ? setting.env.name
        : `${setting.where} ${setting.key}`;
      throw new Error(
        `${name} must list IP addresses or CIDR ranges such as "10.0.0.0/8", got ${JSON.stringify(proxy)}`,
      );
    }
  }
  return proxies;
}
