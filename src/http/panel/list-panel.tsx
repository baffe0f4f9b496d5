import type { Child, FC } from 'hono/jsx'
import { ActionButton, Badge, ListTable } from './ui.js'
import type { PanelFilters } from '../area.js'

/**
 * The dashboard's panels' kit (docs/behaviour.md#control-api): the list panel an area's panel is
 * declared as (`Area.panels`), read from what the area was built with (`S`), and the filter they share.
 */

/** "Reference contains": true without a filter, or when one of the values contains it. */
export function matchesRef(q: string | undefined, ...values: (string | null | undefined)[]): boolean {
  if (!q) return true
  const needle = q.toLowerCase()
  return values.some((v) => typeof v === 'string' && v.toLowerCase().includes(needle))
}

/** One column of a list panel: its heading (with the heading's class: `['Ceiling', 'num']`), its cells' class, and what a cell shows. */
export interface Column<T, S> {
  head: string | [string, string]
  cls?: string
  cell: (item: T, s: S, ns: string) => Child
}

/**
 * A list panel as a panel declares it: its table's id, caption and empty text (`No <caption> match.`
 * unless given), its items (in the order shown, newest first), each row's reference (`data-ref`;
 * an item's `reference` unless given), what else the reference filter searches in one and, where
 * the row says it, its status (`data-status`), and its columns.
 */
export interface ListPanel<T, S> {
  id: string
  caption: string
  empty?: string
  items: (s: S, ns: string, f: PanelFilters) => readonly T[]
  ref?: (item: T) => string
  /** what the filter form's "reference contains" searches in an item besides its reference */
  search?: (item: T) => (string | null | undefined)[]
  status?: (item: T) => string
  /** its columns, made with `col` (the usual columns, for this panel's items) or written out */
  columns: (col: ColumnKit<T, S>) => Column<T, S>[]
}

/** The panel a declaration describes: a row per item (the first ROW_LIMIT, ui.tsx), a cell per column. */
export function listPanel<T, S>(p: ListPanel<T, S> & { ref: (item: T) => string }): FC<{ s: S; ns: string; f: PanelFilters }>
export function listPanel<T extends { reference: string }, S>(p: ListPanel<T, S>): FC<{ s: S; ns: string; f: PanelFilters }>
export function listPanel<T, S>(p: ListPanel<T, S>): FC<{ s: S; ns: string; f: PanelFilters }> {
  const ref = p.ref ?? ((item: T) => (item as { reference: string }).reference)
  const columns = p.columns({ ref: (head, sub, more) => refColumn(head, ref, sub, more), line: lineColumn, status: statusColumn, actions: actionsColumn<T, S> })
  const head = columns.map((c) => c.head)
  const empty = p.empty ?? `No ${p.caption.toLowerCase()} match.`
  return ({ s, ns, f }) => (
    <ListTable
      id={p.id}
      caption={p.caption}
      head={head}
      empty={empty}
      items={p.items(s, ns, f).filter((item) => matchesRef(f.q, ref(item), ...(p.search?.(item) ?? [])))}
      row={(item) => (
        <tr data-ref={ref(item)} data-status={p.status?.(item)}>
          {columns.map((c) => (
            <td class={c.cls}>{c.cell(item, s, ns)}</td>
          ))}
        </tr>
      )}
    />
  )
}

/** The usual columns, for a panel's items. */
export interface ColumnKit<T, S> {
  /** the first column: the row's reference, strong, a line under it (`sub`), and any lines of its own (`more`) */
  ref: (head: string, sub: (item: T) => Child, more?: (item: T) => Child) => Column<T, S>
  line: (head: string, cls: string | undefined, main: (item: T) => Child, sub: (item: T) => Child) => Column<T, S>
  status: (lines: (item: T) => Child) => Column<T, S>
  actions: (buttons: (item: T, s: S) => Child) => Column<T, S>
}

/** The first column (`ColumnKit.ref`), showing `ref` of an item. */
function refColumn<T, S>(head: string, ref: (item: T) => string, sub: (item: T) => Child, more?: (item: T) => Child): Column<T, S> {
  return {
    head,
    cell: (item) => (
      <>
        <span class="mono strong">{ref(item)}</span>
        <span class="sub">{sub(item)}</span>
        {more?.(item)}
      </>
    ),
  }
}

/** A column of a main line and a line under it (`sub`): `cls` the cells' class (`wrap-s` where they may wrap). */
function lineColumn<T, S>(head: string, cls: string | undefined, main: (item: T) => Child, sub: (item: T) => Child): Column<T, S> {
  return {
    head,
    cls,
    cell: (item) => (
      <>
        {main(item)}
        <span class="sub">{sub(item)}</span>
      </>
    ),
  }
}

/** The status column: its badge, and the lines under it. */
function statusColumn<T, S>(lines: (item: T) => Child): Column<T, S> {
  return {
    head: 'Status',
    cls: 'wrap-s',
    cell: (item) => (
      <>
        <Badge value={(item as { status: string }).status} />
        {lines(item)}
      </>
    ),
  }
}

/** The actions column: the buttons an item has (none: an empty cell of actions). */
function actionsColumn<T, S>(buttons: (item: T, s: S) => Child): Column<T, S> {
  return { head: 'Actions', cell: (item, s) => <div class="actions">{buttons(item, s)}</div> }
}

/** A button that credits an account with 1,000 of its currency through the test environment's credit call at `path`. */
export function CreditButton(p: { path: string; body: Record<string, unknown>; currency: string; name: string }) {
  return <ActionButton path={p.path} body={p.body} label={`Credit ${p.currency} 1,000`} name={`Credit ${p.name} with ${p.currency} 1,000`} />
}
