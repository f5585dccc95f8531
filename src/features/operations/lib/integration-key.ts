/**
 * The key under which an integration's customisation and contact are stored: the name
 * lower-cased with runs of non-alphanumerics replaced by `-` (product-spec §3, "a lower-cased,
 * hyphenated key"; docs/data-model.md). `Tithe.ly` → `tithe-ly`.
 */
export function integrationKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

/**
 * The contact key of a custom integration. Its id, not its name: two custom integrations may
 * share a name (every new one starts as "New Integration"), and a rename must keep the contact.
 */
export function customIntegrationKey(id: string): string {
  return `custom-${id.toLowerCase()}`;
}
