import { readFileSync } from 'node:fs'

/**
 * The fixtures of identity records (docs/behaviour.md#test-identities): `fixtures/identities.json`, keyed
 * `<type>:<ID>`, and the images of `fixtures/identity/`. Loaded on the first verification only:
 * nothing at start needs them. They never change while the process runs.
 */

const FIXTURES = new URL('../../fixtures/', import.meta.url)

let records: Record<string, Record<string, unknown>> | null = null
const images = new Map<string, string>()

/** The fixture record of a document's ID (upper-cased, with its prefix), if any. */
export function fixtureRecord(type: string, key: string): Record<string, unknown> | undefined {
  records ??= JSON.parse(readFileSync(new URL('identities.json', FIXTURES), 'utf8')) as Record<string, Record<string, unknown>>
  return records[`${type}:${key}`]
}

/** An image of fixtures/identity as base64 (what the API returns in `image` and `signature`). */
export function fixtureImage(file: string): string {
  let b64 = images.get(file)
  if (b64 === undefined) {
    b64 = readFileSync(new URL(`identity/${file}`, FIXTURES)).toString('base64')
    images.set(file, b64)
  }
  return b64
}

/** A base64 image as a data URL, its type read from its first bytes (the stored check's `image`, docs/behaviour.md#identity-query-and-history). */
export function imageDataUrl(b64: string): string {
  if (/^(data|https?):/.test(b64)) return b64
  return `data:image/${b64.startsWith('/9j/') ? 'jpeg' : 'png'};base64,${b64}`
}

/** The documented sample selfie that matches every record. */
export const MATCHING_SELFIE_FILE = 'matching-selfie.png'
export function matchingSelfieDataUrl(): string {
  return `data:image/png;base64,${fixtureImage(MATCHING_SELFIE_FILE)}`
}

/** A record as answered: image fields that name a file become its base64; `middle_name` is never absent where names are. */
export function materialize(base: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base }
  for (const key of ['image', 'signature']) {
    const v = out[key]
    if (typeof v === 'string' && /^[\w-]+\.(png|jpe?g)$/.test(v)) out[key] = fixtureImage(v)
  }
  if ('first_name' in out) out.middle_name ??= null
  return out
}
