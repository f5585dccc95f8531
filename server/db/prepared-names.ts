/**
 * The statements prepared on one PostgreSQL connection, by their text, so that a message group
 * (message-group.ts) binds a statement it sent before instead of having it parsed and planned
 * again, as PostgREST prepares its statements. PostgreSQL re-plans a prepared statement by
 * itself when a table, a function, the search path or the role (row-level security) it depends
 * on changes; what it refuses is a result of another type ("cached plan must not change result
 * type", 0A000) after a migration, which the caller answers by `clear()` and sending again.
 *
 * A name is never used twice: a statement whose fate is unknown (its group failed, so its Parse
 * may or may not have run) or that left the cache is closed at the start of the next group
 * (closing a name that does not exist is no error), and a new name is taken for it.
 */
export class PreparedNames {
  /** Name of each prepared statement by its text; the first is the least recently used. */
  private readonly names = new Map<string, string>();
  private readonly toClose: string[] = [];
  /** Names parsed by a group whose answer has not come yet: they may not exist. */
  private readonly unconfirmed = new Set<string>();
  private sequence = 0;

  constructor(private readonly capacity: number) {}

  /**
   * The name each statement goes by, and whether the group must parse it (first use). A name is
   * taken as prepared at once, so that the same text later in the group binds it. A group
   * written `ahead` of another's answer parses unnamed ('') a statement whose Parse is in such
   * an unanswered group: if that group fails, its Parse never ran.
   */
  use(texts: string[], ahead = false): { name: string; parse: boolean }[] {
    const parsedHere = new Set<string>();
    return texts.map((text) => {
      const known = this.names.get(text);
      if (known !== undefined && ahead && this.unconfirmed.has(known) && !parsedHere.has(known)) {
        return { name: '', parse: true };
      }
      if (known !== undefined) {
        this.names.delete(text);
        this.names.set(text, known);
        return { name: known, parse: false };
      }
      const name = `steward_${(this.sequence += 1)}`;
      this.names.set(text, name);
      this.unconfirmed.add(name);
      parsedHere.add(name);
      while (this.names.size > this.capacity) {
        const [oldest, oldestName] = this.names.entries().next().value as [string, string];
        this.names.delete(oldest);
        this.toClose.push(oldestName);
      }
      return { name, parse: true };
    });
  }

  /** A group answered: the statements it parsed exist. */
  confirm(used: { name: string; parse: boolean }[]): void {
    for (const { name, parse } of used) if (parse) this.unconfirmed.delete(name);
  }

  /** A group failed: the statements it parsed may not exist, so they are closed and forgotten. */
  forget(used: { name: string; parse: boolean }[]): void {
    for (const { name, parse } of used) {
      if (!parse || name === '') continue;
      this.unconfirmed.delete(name);
      for (const [text, known] of this.names) {
        if (known === name) this.names.delete(text);
      }
      this.toClose.push(name);
    }
  }

  /** Every statement is closed and forgotten (a migration changed what one returns). */
  clear(): void {
    this.toClose.push(...this.names.values());
    this.names.clear();
    this.unconfirmed.clear();
  }

  /** The names the next group closes first. */
  takeClosing(): string[] {
    return this.toClose.splice(0);
  }
}
