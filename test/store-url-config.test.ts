import { describe, expect, it } from 'vitest'
import { resolveConfig } from '../src/config.js'
import { redactUrl as redact } from '../src/config-options.js'

/** `--store` (docs/behaviour.md#flags-and-environment, docs/behaviour.md#persistence): a PostgreSQL URL, never beside `--data`, its password never printed. */
describe('--store postgres://', () => {
  it('takes a PostgreSQL URL, from the flag or SANDBOX_STORE', () => {
    expect(resolveConfig({ store: 'postgres://u:p@db:5432/sandbox' }, {}).storeUrl).toBe('postgres://u:p@db:5432/sandbox')
    expect(resolveConfig({}, { SANDBOX_STORE: 'postgresql://db/sandbox' }).storeUrl).toBe('postgresql://db/sandbox')
    expect(resolveConfig({}, {}).storeUrl).toBeUndefined()
  })

  it('refuses another URL without printing its password, and refuses --data beside it', () => {
    expect(() => resolveConfig({ store: 'mysql://u:secret@db/x' }, {})).toThrow('--store must be a PostgreSQL URL, postgres://user:password@host:port/database (got mysql://u:***@db/x)')
    expect(() => resolveConfig({ store: 'postgres://db/x', data: 'x.json' }, {})).toThrow('--data and --store name two stores: choose one')
  })

  it('hides the password of a URL in every message', () => {
    expect(redact('postgres://sandbox:s3cret@db:5432/x')).toBe('postgres://sandbox:***@db:5432/x')
    expect(redact('postgres://db:5432/x')).toBe('postgres://db:5432/x')
    expect(redact('postgres://db:5432/x?user=u&password=s3cret&sslmode=disable')).toBe('postgres://db:5432/x?user=u&password=***&sslmode=disable')
  })
})
