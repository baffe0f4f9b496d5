import type { ActiveScenarios } from './index.js'

/**
 * What an area's test values are written from (`Area.testValues`): the packs in force as
 * `GET /_sandbox/scenarios` and `sandbox magic --json` show them, every area's settings included.
 */
export type TestValuesView = ReturnType<ActiveScenarios['toJSON']>

/** A plain-text table, its columns as wide as their widest cell (`sandbox magic`). */
export function textTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) => cells.map((c, i) => (c ?? '').padEnd(widths[i])).join('  ').trimEnd()
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n'
}

/** A markdown table (docs/test-values.md), a `|` in a cell escaped. */
export function markdownTable(headers: string[], rows: string[][]): string {
  const cell = (s: string) => String(s).replaceAll('|', '\\|')
  return [`| ${headers.join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n')
}

/** Inline code (docs/test-values.md). */
export const code = (s: string | number) => '`' + s + '`'
export const codes = (list: readonly string[]) => list.map(code).join(', ')
export const num = (n: number | string) => Number(n).toLocaleString('en-US')
/** `a, b and c` */
export const words = (list: readonly string[], and = 'and') => (list.length < 2 ? list.join('') : `${list.slice(0, -1).join(', ')} ${and} ${list.at(-1)}`)

type Fee = TestValuesView['settings']['fees']['card']
/** A fee rule in words (docs/test-values.md): `1.4 %, at most 2,000`. */
export const feeWords = (f: Fee) => [`${f.percent} %`, ...(f.cap !== undefined ? [`at most ${num(f.cap)}`] : []), ...(f.flat !== undefined ? [`plus ${num(f.flat)}`] : [])].join(', ')
/** A fee rule as `sandbox magic` prints it: `1.4%, cap 2000`. */
export const feeText = (f: Fee) => [`${f.percent}%`, ...Object.entries(f).filter(([k]) => k !== 'percent').map(([k, v]) => `${k} ${v}`)].join(', ')
/** How a test value ends (docs/test-values.md): its outcome, a failure with its message. */
export const ended = (x: { outcome: string; message?: string }) => (x.outcome === 'failed' ? `failed: ${code(x.message!)}` : x.outcome === 'processing' ? `stays ${code('processing')}` : x.outcome)
