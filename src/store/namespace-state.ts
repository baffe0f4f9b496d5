/**
 * What a part of the sandbox keeps of a namespace outside the store's records: caches derived from
 * them (the packs in force, the ledger's sums, the clock's timers, the order of events) and state
 * of its own (the journal, armed faults, deliveries under way). Each part registers it once with
 * the store (`Store.registerState`), which tells it when the namespace's records change other than
 * by a put or a delete: a reset empties them (`POST /_sandbox/reset`, docs/behaviour.md#reset), a
 * snapshot replaces them (`POST /_sandbox/snapshot`, `--load`), and a failed write puts them back as the data file holds them (docs/behaviour.md#persistence). Either way what
 * was derived from the records before is dropped, to be read again from them when next needed.
 */
export interface NamespaceState {
  /** The namespace was emptied: forget everything of it. */
  reset(ns: string): void
  /**
   * A failed write put the namespace's records back as the file holds them: drop (or read again)
   * what was derived from them. Absent when nothing it keeps is derived from records (the journal
   * keeps the refused call, an armed fault stays armed).
   */
  restored?(ns: string): void
  /**
   * A snapshot replaced the namespace's records whole (docs/behaviour.md#snapshots), after a `reset`:
   * take up again what is read from them at a start (the clock's timers, the webhook queues).
   * Absent when what it keeps is read again when next needed.
   */
  replaced?(ns: string): void
}
