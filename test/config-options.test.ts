import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildProgram } from '../src/cli.js'
import { LIVE_KEY_ENV, OPTIONS, type AnyOption } from '../src/config-options.js'
import { ConfigError, resolveConfig } from '../src/config.js'

/**
 * The option table (src/config-options.ts) is the one declaration of the configuration: the flags
 * of `sandbox start` and the table of docs/behaviour.md#flags-and-environment are held to it here, so none of the
 * three can drift from the others.
 */
const ROOT = resolve(import.meta.dirname, '..')
const options = Object.values(OPTIONS as Record<string, AnyOption>)
const withFlag = options.filter((o) => o.flag)
const envOnly = options.filter((o) => !o.flag)

/** The rows of the table of docs/behaviour.md#flags-and-environment, as their cells. */
function docsRows(): string[][] {
  const text = readFileSync(join(ROOT, 'docs/behaviour.md'), 'utf8')
  const start = text.indexOf('<a id="flags-and-environment"></a>')
  const section = text.slice(start, text.indexOf('<a id="', start + 1))
  return section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    )
}

/** The first three cells of an option's row: its flag, its variable (and how it is written), its default. */
function expectedCells(o: AnyOption): string[] {
  const { kind, default: dflt } = o.reader
  const env = `\`${o.env}\`` + (kind === 'switch' ? ' (`1`, `true`, `yes`)' : kind === 'list' ? ' (comma-separated)' : '')
  const shown = kind === 'switch' ? 'off' : dflt === undefined ? '' : `\`${dflt}\``
  return [o.flag ? `\`${o.flag}\`` : '', env, shown]
}

describe('the option table, the flags of sandbox start and docs/behaviour.md#flags-and-environment agree', () => {
  const start = buildProgram().commands.find((c) => c.name() === 'start')!

  it('gives sandbox start a flag for each option of the table that has one, in its order, then its own', () => {
    const own = ['--detach', '--pid-file <file>', '--no-exit-with-parent']
    expect(start.options.map((o) => o.flags)).toEqual([...withFlag.map((o) => o.flag), ...own])
    for (const o of withFlag) {
      const help = start.options.find((c) => c.flags === o.flag)!.description
      expect(help).toContain(o.help)
      expect(help).toContain(`env: ${o.env}`)
      if (o.reader.default !== undefined && o.reader.kind !== 'switch') expect(help).toContain(`default: ${o.reader.default}`)
    }
  })

  it("names, in every command's help, only variables the option table declares (or the client's SANDBOX_URL and the live keys' KORAPAY_*)", () => {
    const program = buildProgram()
    const known = new Set<string>([...options.map((o) => o.env), 'SANDBOX_URL', ...Object.values(LIVE_KEY_ENV)])
    const texts = [program, ...program.commands].flatMap((c) => [c.description(), c.helpInformation(), ...c.options.map((o) => o.description)])
    const named = new Set(texts.flatMap((t) => [...t.matchAll(/\b(?:SANDBOX|KORAPAY)_[A-Z_]+\b/g)].map((m) => m[0])))
    // sandbox snapshot and sandbox health name theirs
    expect(named).toContain(OPTIONS.controlToken.env)
    expect(named).toContain(OPTIONS.port.env)
    expect([...named].filter((v) => !known.has(v))).toEqual([])
  })

  it('lets commander read no environment variable: config.ts reads them all (docs/architecture.md)', () => {
    const program = buildProgram()
    const envVars = [program, ...program.commands].flatMap((c) => c.options.map((o) => o.envVar).filter(Boolean))
    expect(envVars).toEqual([])
  })

  it('documents each option in docs/behaviour.md#flags-and-environment with its flag, variable and default, in the order of the table', () => {
    const rows = docsRows()
    const startOwn = start.options.filter((c) => !withFlag.some((o) => o.flag === c.flags)).map((c) => `\`${c.flags}\``)
    expect(rows.map((r) => r[0])).toEqual([...withFlag.map((o) => `\`${o.flag}\``), ...startOwn, ...envOnly.map(() => '')])
    const tableRows = [...rows.slice(0, withFlag.length), ...rows.slice(withFlag.length + startOwn.length)]
    expect(tableRows.map((r) => r.slice(0, 3))).toEqual([...withFlag, ...envOnly].map(expectedCells))
  })

  it('names a flag by its flag and an option of the environment only by its variable when it refuses a value', () => {
    expect(() => resolveConfig({}, { SANDBOX_JOURNAL_SIZE: '0' })).toThrow(new ConfigError('--journal-size must be a whole number from 1 to 100000 (got 0)'))
    expect(() => resolveConfig({}, { SANDBOX_COMPACT_MIN_BYTES: '1' })).toThrow(new ConfigError('SANDBOX_COMPACT_MIN_BYTES must be a whole number from 1024 to 1073741824 (got 1)'))
  })

  it('reads an on/off variable as on only for 1, true or yes (docs/behaviour.md#flags-and-environment), --strict-keys included', () => {
    for (const o of options.filter((x) => x.reader.kind === 'switch')) {
      const field = o.field as 'strictKeys'
      expect(resolveConfig({}, { [o.env]: 'yes' })[field]).toBe(true)
      expect(resolveConfig({}, { [o.env]: '0' })[field]).toBe(false)
    }
  })
})
