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
