import type { Child, FC } from 'hono/jsx'
import { formatMoney } from '../../money.js'

/** The most rows a list shows (the newest). */
export const ROW_LIMIT = 200

export const enc = encodeURIComponent

/** `NGN 1,234.50` from minor units. */
export function money(minor: number, currency: string): string {
  return formatMoney(currency, minor)
}

export { when } from '../../clock.js'

/** `+1d 2h 3m 4s` */
export function duration(ms: number): string {
  const sign = ms < 0 ? '-' : '+'
  let s = Math.round(Math.abs(ms) / 1000)
  const d = Math.floor(s / 86400)
  s -= d * 86400
  const h = Math.floor(s / 3600)
  s -= h * 3600
  const m = Math.floor(s / 60)
  s -= m * 60
  return `${sign}${d ? `${d}d ` : ''}${h}h ${m}m ${s}s`
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** Newest first by created_at; of two made at the same moment, the one stored later first. */
export const newestFirst = <T extends { created_at: string }>(rows: T[]) =>
  rows.map((r, i) => [r, i] as const).sort((a, b) => (a[0].created_at < b[0].created_at ? 1 : a[0].created_at > b[0].created_at ? -1 : b[1] - a[1])).map(([r]) => r)

export const Badge: FC<{ value: string }> = ({ value }) => <span class={`badge b-${value}`}>{value.replace(/_/g, ' ')}</span>

/** A button that calls the control API (dashboard.js sends it). */
export const ActionButton: FC<{ path: string; label: string; name: string; body?: unknown; method?: string; cls?: string; confirm?: string }> = (p) => (
  <button
    type="button"
    class={`small ${p.cls ?? ''}`.trim()}
    data-path={p.path}
    data-method={p.method ?? 'POST'}
    data-body={p.body === undefined ? undefined : JSON.stringify(p.body)}
    data-confirm={p.confirm}
    data-key={`${p.path}|${JSON.stringify(p.body ?? null)}`}
    data-label={p.name}
    aria-label={p.name}
  >
    {p.label}
  </button>
)

/** `shown`: how many of `total` the rows hold, when a row may carry rows of its own (a checkout's attempts) */
export function Table(props: { caption: string; head: (string | [string, string])[]; rows: Child[]; total: number; shown?: number; empty: string; id: string }) {
  if (!props.rows.length) return <p class="empty" id={props.id}>{props.empty}</p>
  const shown = props.shown ?? props.rows.length
  return (
    <div class="scroll" role="region" aria-label={props.caption} tabindex={0}>
      <table id={props.id}>
        <caption>
          {props.caption}
          {props.total > shown ? ` (the newest ${shown} of ${props.total})` : ` (${props.total})`}
        </caption>
        <thead>
          <tr>
            {props.head.map((h) => (typeof h === 'string' ? <th scope="col">{h}</th> : <th scope="col" class={h[1]}>{h[0]}</th>))}
          </tr>
        </thead>
        <tbody>{props.rows}</tbody>
      </table>
    </div>
  )
}

/** A table of a list, newest first: a row for each of its first ROW_LIMIT items, and how many it holds. */
export function ListTable<T>(props: { caption: string; head: (string | [string, string])[]; items: readonly T[]; row: (item: T) => Child; empty: string; id: string }) {
  const { items, row, ...table } = props
  return <Table {...table} rows={items.slice(0, ROW_LIMIT).map(row)} total={items.length} />
}

export const Field: FC<{ id: string; label: string; name: string; type?: string; value?: string; placeholder?: string; wide?: boolean; required?: boolean; min?: string }> = (p) => (
  <div class={p.wide ? 'field wide' : 'field'}>
    <label for={p.id}>{p.label}</label>
    <input id={p.id} name={p.name} type={p.type ?? 'text'} value={p.value} placeholder={p.placeholder} required={p.required} min={p.min} step={p.type === 'number' ? 'any' : undefined} autocomplete="off" />
  </div>
)

export const Select: FC<{ id: string; label: string; name: string; options: [string, string][]; value?: string }> = (p) => (
  <div class="field">
    <label for={p.id}>{p.label}</label>
    <select id={p.id} name={p.name}>
      {p.options.map(([value, text]) => (
        <option value={value} selected={value === (p.value ?? '')}>
          {text}
        </option>
      ))}
    </select>
  </div>
)
