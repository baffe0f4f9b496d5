import type { ActiveScenarios } from './scenario/index.js'

type Magic = ReturnType<ActiveScenarios['toJSON']>

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) => cells.map((c, i) => (c ?? '').padEnd(widths[i])).join('  ').trimEnd()
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n'
}

/** The active test values as plain-text tables (`sandbox magic`). */
export function formatMagic(m: Magic): string {
  const parts: string[] = []
  parts.push(`PIN ${m.settings.pin}, OTP ${m.settings.otp}; cards expire as listed, any future date works.\n`)
  parts.push('Cards\n')
  parts.push(
    table(
      ['number', 'scheme', 'cvv', 'expiry', 'steps', 'outcome', 'label'],
      m.cards.map((c) => [c.number, c.scheme, c.cvv, `${c.expiry_month}/${c.expiry_year}`, c.steps.join(',') || '-', c.outcome, c.label]),
    ),
  )
  if (m.wallets.length) {
    parts.push('\nMobile money wallets\n')
    parts.push(table(['number', 'currency', 'steps', 'outcome', 'label'], m.wallets.map((w) => [w.number, w.currency, w.steps.join(','), w.outcome, w.label])))
  }
  if (m.identities.length) {
    parts.push('\nIdentities\n')
    parts.push(table(['type', 'id', 'found', 'label'], m.identities.map((x) => [x.type, x.id, String(x.found), x.label])))
  }
  if (m.accounts.length) {
    parts.push('\nDirect debit accounts\n')
    parts.push(table(['account', 'bank', 'outcome', 'label'], m.accounts.map((a) => [a.account_number, a.bank_code, a.outcome, a.label])))
  }
  if (m.authorizations.length) {
    parts.push('\nSeeded direct debit authorizations\n')
    parts.push(table(['reference', 'status', 'amount', 'label'], m.authorizations.map((a) => [a.reference, a.status, String(a.amount), a.label])))
  }
  return parts.join('')
}
