/**
 * The file itself holds no text that can be read (damaged, password-protected, empty, of a
 * kind without text): reading it again would give the same answer, so it is recorded as
 * "not available" with this reason instead of being retried.
 */
export class UnreadableFile extends Error {}
