// node-postgres' conversion of a bound value to its text form (dates, arrays, JSON), used by
// message-group.ts so that its values are sent exactly as node-postgres' own queries send them.
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): string | Buffer | null };
  export default utils;
}
