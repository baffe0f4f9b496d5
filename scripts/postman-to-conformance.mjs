// Turns a Postman collection's example answers into conformance entries (docs/behaviour.md#conformance):
//
//   node scripts/postman-to-conformance.mjs COLLECTION.json --out DIR \
//     [--repo owner/name --path path/in/repo --commit SHA] [--original URL] [--date YYYY-MM-DD]
//
// COLLECTION.json is a copy fetched beforehand (this script never uses the network). Each example
// of each request becomes an entry: the example's request as one step, its answer as a whole
// expectation, its HTTP status, tier 1 for a 2xx (or an answer with status true) and 2 otherwise,
// dated by the example's Date header (else --date), its source naming the folder and example. The
// request's URL is matched against conformance/endpoints.yaml (the collection's typo'd
// `https://api.korapay.comapi/v1/...` read as `/merchant/api/v1/...`); an example whose endpoint is
// not listed, or whose answer is not JSON, is left out and named on stderr. One YAML file per
// top-level folder is written to DIR: review it (test values in place of the sample's, known
// differences, masks) before moving it under conformance/entries/.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse, stringify } from 'yaml'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

function args(argv) {
  const out = { _: [] }
  for (let i = 0; i < argv.length; i++) {
    if (argv[i].startsWith('--')) out[argv[i].slice(2)] = argv[++i]
    else out._.push(argv[i])
  }
  return out
}

/** `GET /merchant/api/v1/charges/:` as src/replay/corpus.ts `endpointKey` writes it. */
const keyOf = (method, path) => `${method.toUpperCase()} ${path.replace(/:[A-Za-z_]\w*/g, ':').replace(/(.)\/+$/, '$1')}`

/** The listed endpoints, each with a pattern that matches a concrete path. */
function endpoints(file) {
  return parse(readFileSync(file, 'utf8')).endpoints.map((e) => ({
    endpoint: `${e.method} ${e.path}`,
    method: e.method,
    pattern: new RegExp(`^${e.path.replace(/\/+$/, '').replace(/:[A-Za-z_]\w*/g, '[^/]+')}/?$`),
  }))
}

/** The path of a request's URL, the host and the collection's typo taken off. */
export function pathOf(url) {
  const raw = typeof url === 'string' ? url : (url?.raw ?? '')
  const noQuery = raw.split('?')[0]
  const query = raw.includes('?') ? raw.slice(raw.indexOf('?')) : ''
  const path = noQuery
    .replace(/^https:\/\/api\.korapay\.comapi\/v1\//, '/merchant/api/v1/')
    .replace(/^(https?:\/\/[^/]+|\{\{\s*base_?url\s*\}\})/i, '')
  return { path: path.startsWith('/') ? path : `/${path}`, query }
}

/** JSON with the `// ...` comments the collection's bodies carry, or undefined. */
function json(text) {
  if (typeof text !== 'string' || !text.trim()) return undefined
  try {
    return JSON.parse(text.replace(/^\s*\/\/.*$/gm, '').replace(/,\s*\/\/[^\n]*$/gm, ','))
  } catch {
    return undefined
  }
}

const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')

/** The example's own date, from its Date header. */
function dateOf(example) {
  const header = (example.header ?? []).find((h) => /^date$/i.test(h.key))
  const d = header && new Date(header.value)
  return d && !Number.isNaN(d.getTime()) ? d.toISOString().slice(0, 10) : undefined
}

/** Every request item of the collection with its folder path. */
function* requests(items, folders = []) {
  for (const item of items ?? []) {
    if (item.item) yield* requests(item.item, [...folders, item.name])
    else if (item.request) yield { item, folders }
  }
}

export function convert(collection, options) {
  const listed = endpoints(options.endpoints)
  const files = new Map()
  const skipped = []
  const ids = new Set()
  for (const { item, folders } of requests(collection.item)) {
    for (const example of item.response ?? []) {
      const where = [...folders, item.name, example.name].join(' / ')
      const request = example.originalRequest ?? item.request
      const method = (request.method ?? item.request.method).toUpperCase()
      const { path, query } = pathOf(request.url ?? item.request.url)
      const match = listed.find((e) => e.method === method && e.pattern.test(path)) ??
        listed.find((e) => e.method === method && e.pattern.test(`/merchant${path}`))
      const body = json(example.body)
      if (!match) { skipped.push(`${where}: ${method} ${path} is not in endpoints.yaml`); continue }
      if (body === undefined) { skipped.push(`${where}: the answer is not JSON`); continue }
      const ok = example.code ? example.code < 300 : body.status === true
      let id = `pm-${slug(`${item.name} ${example.name}`)}`.slice(0, 80)
      while (ids.has(id)) id += '-x'
      ids.add(id)
      const sent = json(request.body?.raw)
      const concrete = match.pattern.test(path) ? path : `/merchant${path}`
      const entry = {
        id,
        endpoint: match.endpoint,
        tier: ok ? 1 : 2,
        date: dateOf(example) ?? options.date,
        source: { ...options.source, item: where },
        steps: [
          {
            request: { method, path: concrete + query, ...(sent === undefined ? {} : { body: sent }) },
            expect: { ...(example.code ? { status: example.code } : {}), whole: true, body },
          },
        ],
      }
      const folder = slug(folders[0] ?? 'collection')
      if (!files.has(folder)) files.set(folder, [])
      files.get(folder).push(entry)
    }
  }
  return { files, skipped }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const a = args(process.argv.slice(2))
  if (a._.length !== 1 || !a.out) {
    process.stderr.write('usage: node scripts/postman-to-conformance.mjs COLLECTION.json --out DIR [--repo R --path P --commit SHA] [--original URL] [--date YYYY-MM-DD]\n')
    process.exit(2)
  }
  const source = a.repo ? { repo: a.repo, path: a.path, commit: a.commit, ...(a.original ? { original: a.original } : {}) } : { url: a.original ?? 'https://docs.korapay.com' }
  const { files, skipped } = convert(JSON.parse(readFileSync(a._[0], 'utf8')), {
    endpoints: a.endpoints ?? join(ROOT, 'conformance/endpoints.yaml'),
    source,
    date: a.date,
  })
  mkdirSync(a.out, { recursive: true })
  for (const [folder, entries] of files) {
    const head = `# Generated by scripts/postman-to-conformance.mjs from the collection's "${folder}" folder: review before moving under conformance/entries/.\n`
    writeFileSync(join(a.out, `${folder}.yaml`), head + stringify({ kind: 'docs', profile: ['default', 'live'], entries }, { lineWidth: 0 }))
  }
  for (const s of skipped) process.stderr.write(`left out: ${s}\n`)
  process.stdout.write(`${[...files.values()].reduce((n, e) => n + e.length, 0)} entries in ${files.size} files, ${skipped.length} examples left out\n`)
}
