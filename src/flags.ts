import { Option } from 'commander'
import { OPTIONS, type AnyOption } from './config-options.js'

/** a repeatable flag's values, in order */
export const collect = (value: string, previous: string[] = []) => [...previous, value]

/**
 * The commander option of a flag of the option table (src/config-options.ts), its default and
 * variable in its help. Commander reads no variable: config.ts reads the environment.
 */
export function flagOption(o: AnyOption): Option {
  const { kind, default: dflt } = o.reader
  const env = kind === 'switch' ? `${o.env}=1` : kind === 'list' ? `${o.env}, comma-separated` : o.env
  const option = new Option(o.flag!, `${o.help} (${dflt === undefined ? '' : `default: ${dflt}, `}env: ${env})`)
  return kind === 'list' ? option.argParser(collect) : option
}

/**
 * `--seed` and `--clock-start` of a command that starts a sandbox of its own (`replay`, `verify`):
 * the one way such a command runs under a seed is to add these, read them with `seedFrom`
 * (src/config.ts) and give what it returns to `startSandbox` (docs/behaviour.md#seed-and-clock-start).
 */
export const seedFlags = (): Option[] => [flagOption(OPTIONS.seed), flagOption(OPTIONS.clockStart)]
