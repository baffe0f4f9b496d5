import type { AreaTestValues } from '../http/area.js'
import { identityDocument, identityDocuments } from '../scenario/documents.js'
import { code as c, codes as cs, markdownTable, textTable as table, words, type TestValuesView } from '../scenario/test-value-text.js'

/** Identities (docs/behaviour.md#identity): the test IDs of each document, with the path each is posted to. */
function text(m: TestValuesView): string {
  const parts: string[] = []
  if (m.identities.length) {
    parts.push('\nIdentities\n')
    // the path each is posted to, under /merchant/api/v1/identities/ (docs/behaviour.md#identity-calls-and-modes)
    parts.push(table(['type', 'path', 'id', 'found', 'label'], m.identities.map((x) => [x.type, identityDocument(x.type)?.path ?? '-', x.id, x.unavailable ? 'unavailable' : String(x.found), x.label])))
    // a bank-account check's bank_code names a bank of its list (docs/behaviour.md#identity-bank-account-banks)
    for (const d of identityDocuments().values()) if (d.banks) parts.push(`  ${d.path} takes bank_code from GET identities/${d.country}/banks?type=${d.banks.list}: ${d.banks.banks.map((b) => `${b.code} ${b.name}`).join(', ')}\n`)
  }
  return parts.join('')
}

/** Its section of docs/test-values.md, below its title. */
function page(view: TestValuesView): string {
  const rows: string[][] = []
  const unavailable: string[] = []
  for (const d of identityDocuments().values()) {
    const ids = view.identities.filter((x) => x.type === d.type)
    for (const x of ids) if (x.unavailable) unavailable.push(`${c(x.id)} (${d.name})`)
    let document = `${d.name} (${c(d.type)})`
    if (d.webhook) document += `, sends ${c('verification.completed')}`
    if (d.optional_prefix) document += `, digits only (${c(d.optional_prefix)} apart)`
    for (const [field, take] of Object.entries(d.takes ?? {})) document += `, ${c(field)} ${take.one_of.map(c).join(' or ')}`
    if (d.banks) document += `, ${c('bank_code')} of the ${d.banks.list} list (${cs(d.banks.banks.map((b) => b.code))}) ‡`
    if (!d.path_shown) document += ' *'
    const v = d.validation
    const validation = !v.length ? 'lookup only' : v.includes('date_of_birth') ? 'names, date of birth' : 'first and last name'
    rows.push([
      d.country.toUpperCase(),
      document,
      cs([d.path, ...(d.other_paths ?? [])]),
      cs(ids.filter((x) => x.found).map((x) => x.id)) || 'none',
      cs(ids.filter((x) => !x.found && !x.unavailable).map((x) => x.id)) || 'any other',
      validation + (d.selfie ? ', selfie' : ''),
    ])
  }
  return `${c('POST /merchant/api/v1/identities/<path>')} (also ${c('/api/v1/identities/<path>')}) with
${c('{id, verification_consent: true, validation?: {first_name, last_name, date_of_birth, selfie?}}')};
${c('nin')} or ${c('number')} may stand for ${c('id')}, as some apps send it
([behaviour.md#identity](behaviour.md#identity)). A selfie matches when it is the
record's own ${c('image')} or the sample ${c('fixtures/identity/matching-selfie.png')}. Every ID of a
document's format that the table does not list is not found: 404 ${c('<Label> data not found')} with
${c('data: {}')} (${c('BVN data not found')}). A check's reference is ${c('VR-')} and 17 letters or digits.

${markdownTable(['country', 'document (`id_type`)', 'path', 'found', 'not found', 'validation'], rows)}

\\* The live documentation publishes the test IDs but not the path: the sandbox follows the
documented ${c('<country>/<document>')} pattern (behaviour.md#identity-calls-and-modes).
‡ ${c('GET /merchant/api/v1/identities/ng/banks?type=premium|basic')} lists the codes each look-up takes;
a code of the other list finds nothing (behaviour.md#identity-bank-account-banks).
The test IDs of NIN by phone number are the sandbox's own: the live page publishes none for it, so it
reuses the phone check's (behaviour.md#test-identities); so are the not-found bank accounts and KE phone.
Every other test ID is the live testing page's.

A registry that does not answer is a sandbox-only outcome: ${words(unavailable)} answer 503
${c('Service currently unavailable')} and keep nothing; a pack marks any ID so with ${c('unavailable: true')}
(behaviour.md#identity-checks).

${c('GET /merchant/api/v1/identities/verifications/{reference}')} answers one check, found or not, and
${c('POST /merchant/api/v1/identities/verifications')} ${c('{start_date?, end_date?, limit?, page?}')} lists
them newest first (behaviour.md#identity-query-and-history). The documents are data: ${c('fixtures/identity-documents.json')}
declares each (path, ID format, texts, what it compares, its record's fields), and the records of
the test IDs are in ${c('fixtures/identities.json')}. To add test values for any document, give a pack
with ${c('--scenarios')} (${c('identities: [{type, id, found, unavailable?, label, record?}]')}, behaviour.md#scenario-packs): no code
changes; a new document is one more entry in the documents file. ${c('sandbox magic')} lists every
identity with its path.
`
}

/**
 * Its test values (`Area.testValues`): on the page after direct debit (30); in `sandbox magic`'s
 * text before it, after the wallets (20).
 */
export const identityTestValues: AreaTestValues = { place: 40, textPlace: 25, text, page: { title: 'Identities', body: page } }
