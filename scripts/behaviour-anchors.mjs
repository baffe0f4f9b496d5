#!/usr/bin/env node
/**
 * docs/behaviour.md is cited by stable names, not by section numbers: `docs/behaviour.md#readiness-report`
 * (one form, read the same in prose, in a comment and as a markdown link target). Its sections were
 * once numbered by the project's history (0 Product ... 13 Beyond the seed, 14 Reaching); the map of
 * those numbers, and of the heading anchors GitHub made of them, to the names is in
 * scripts/behaviour-anchors.json and stays there, so that a branch written before the names can be
 * brought over at merge:
 *
 *   node scripts/behaviour-anchors.mjs            rewrite every old citation in the repository
 *   node scripts/behaviour-anchors.mjs --check    list the old citations left, exit 1 if any
 *   node scripts/behaviour-anchors.mjs FILE...    rewrite only these files
 *
 * It rewrites `behaviour.md 9.10` (and `behaviour.md 9.3, 9.4`, `behaviour.md 4-5`, a number on
 * the comment's next line) to `behaviour.md#readiness-report`, links to the old heading anchors
 * (`behaviour.md#910-the-readiness-report-...`) to the name, and, in docs/behaviour.md itself, its
 * own bare references (`(9.3)`, `section 6`) to links (`[namespace-clock](#namespace-clock)`).
 * Running it again changes nothing.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const MAP = JSON.parse(readFileSync(join(ROOT, 'scripts/behaviour-anchors.json'), 'utf8'))
/** number → name, in the old document order */
const NUMBERS = MAP.numbers
/** GitHub's anchor of an old numbered heading → name */
const LINKS = MAP.links
const KEYS = Object.keys(NUMBERS)
const SELF = ['scripts/behaviour-anchors.mjs', 'scripts/behaviour-anchors.json', 'test/behaviour-anchors.test.ts']

const NUM = String.raw`\d{1,2}(?:\.\d{1,2}){0,2}(?![\d]|\.\d)`
const SEP = String.raw`(?:, | and | or |-|–)`
const GAP = String.raw`(?:[ \t]+|[ \t]*\r?\n[ \t]*(?:\*|\/\/|#|--)?[ \t]*)`
/** `behaviour.md 9.3`, `docs/behaviour.md 9.3, 9.4`, `behaviour.md\n * 13.7` */
const CITATION = new RegExp(String.raw`((?:[\w.\-]*\/)*behaviour\.md)${GAP}(${NUM}(?:${SEP}${NUM})*)`, 'g')
/** `behaviour.md#910-the-readiness-report...` or, in behaviour.md, `](#910-...)` */
const OLD_LINK = /(behaviour\.md#)([0-9][0-9a-z\-]*)/g
const OLD_SELF_LINK = /(\]\(#)([0-9][0-9a-z\-]*)/g

function name(num) {
  return NUMBERS[num.replace(/\.$/, '')]
}

/** The numbers a list names: `9.3, 9.4` → both, `4-5` → 4 and 5, `0.4-0.7` → 0.4 ... 0.7. */
function numbers(list) {
  const out = []
  const parts = list.split(/(, | and | or |-|–)/)
  for (let i = 0; i < parts.length; i += 2) {
    const sep = parts[i - 1]
    if (sep === '-' || sep === '–') {
      const from = KEYS.indexOf(out.at(-1)?.num)
      const to = KEYS.indexOf(parts[i])
      const depth = parts[i].split('.').length
      if (from >= 0 && to > from) {
        for (const k of KEYS.slice(from + 1, to + 1)) if (k.split('.').length === depth) out.push({ num: k, sep: ', ' })
        continue
      }
    }
    out.push({ num: parts[i], sep: sep ?? '' })
  }
  return out
}

/** A file's text with its old citations rewritten; `unknown` collects numbers the map lacks. */
export function rewrite(text, unknown = []) {
  let out = text.replace(CITATION, (all, path, list) => {
    const nums = numbers(list)
    if (nums.some((n) => !name(n.num))) {
      unknown.push(all)
      return all
    }
    return nums.map((n, i) => (i ? (n.sep === '-' ? ', ' : n.sep) : '') + `${path}#${name(n.num)}`).join('')
  })
  out = out.replace(OLD_LINK, (all, head, slug) => (LINKS[slug] ? head + LINKS[slug] : all))
  return out
}

/** docs/behaviour.md's own bare references to its numbered sections, as links to the names. */
export function rewriteSelf(text) {
  // outside fenced blocks, code spans (which may run over lines) and headings
  return text
    .split(/(^```[^\n]*\n[\s\S]*?^```[^\n]*$)/m)
    .map((seg, i) =>
      i % 2
        ? seg
        : seg
            .split(/(`[^`]*`)/)
            .map((part, j) => (j % 2 ? part : part.split('\n').map((line) => (/^#{1,6} /.test(line) ? line : refs(line))).join('\n')))
            .join(''),
    )
    .join('')
}

function refs(part) {
  // `section 8`, `sections 6 and 7`
  part = part.replace(/\b(sections? )(\d{1,2}(?:\.\d{1,2}){0,2})((?: and |, )(\d{1,2}(?:\.\d{1,2}){0,2}))?(?![\d.]\d| of (?:api|SPEC|CONTRACT))/g, (all, word, a, rest, b) =>
    name(a) && (!b || name(b)) ? word + link(a) + (rest ? rest.slice(0, rest.length - b.length) + link(b) : '') : all,
  )
  // `(9.3)`, `(0.4, 9.1)`, `8.4's`, `as 5.5 (`, `and 13.12 are`: a dotted number that names a section
  return part.replace(/(?<=[\s(,;])(\d{1,2}\.\d{1,2}(?:\.\d)?)(?!\d|\.\d| ?(?:%|s\b|ms\b|MB|KB|GB|times\b|x\b|on \d|(?:in|of) (?:api|SPEC|CONTRACT))|-\d)/g, (all, num, offset, whole) => {
    const before = whole.slice(0, offset)
    if (!name(num) || SOURCE.test(before)) return all
    if (/\b(?:OpenAPI|load|at|most|costs|gains|buys|paysandbox|[A-Z]{3})[ \t]*$/.test(before)) return all
    return link(num)
  })
}

/** What precedes a number of another document: `api.md 2.8`, `SPEC.md 7.4`, `SPEC-BEYOND-3 2.5`, `CONTRACT 15`. */
const SOURCE = /(?:api\.md|CONTRACT|SPEC(?:\.md)?|SPEC-BEYOND(?:-\d)?|RFC|ISO|issue|version|v)[ \t]*$/i

function link(num) {
  return `[${name(num)}](#${name(num)})`
}

/** The `<a id>` line before each numbered heading of docs/behaviour.md, once. */
export function anchorHeadings(text) {
  const lines = text.split('\n')
  const out = []
  for (const line of lines) {
    const m = /^#{2,6} (\d{1,2}(?:\.\d{1,2}){0,2})\.? /.exec(line)
    if (m && name(m[1]) && !/^<a id="/.test(out.at(-1) ?? '') && !/^<a id="/.test(out.at(-2) ?? '')) {
      out.push(`<a id="${name(m[1])}"></a>`, '')
    }
    out.push(line)
  }
  return out.join('\n')
}

function files() {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean)
  return listed.filter((f) => !SELF.includes(f) && !/\.(png|jpg|gif|ico|woff2?|gz|tgz|pem|der)$/.test(f))
}

function main(argv) {
  const check = argv.includes('--check')
  const named = argv.filter((a) => !a.startsWith('--'))
  const targets = named.length ? named : files()
  let changed = 0
  let citations = 0
  const unknown = []
  for (const file of targets) {
    const path = resolve(ROOT, file)
    let text
    try {
      text = readFileSync(path, 'utf8')
    } catch {
      continue
    }
    if (!text.includes('behaviour') && !file.endsWith('behaviour.md')) continue
    const self = file.replace(/\\/g, '/').endsWith('docs/behaviour.md')
    let next = rewrite(text, unknown)
    if (self) next = rewriteSelf(anchorHeadings(next.replace(OLD_SELF_LINK, (all, head, slug) => (LINKS[slug] ? head + LINKS[slug] : all))))
    if (next !== text) {
      changed++
      citations += count(next) - count(text)
      if (check) console.log(`${file}: old citations of behaviour.md`)
      else writeFileSync(path, next)
    }
  }
  for (const u of unknown) console.error(`no name for: ${JSON.stringify(u)}`)
  if (check) process.exit(changed ? 1 : 0)
  console.log(`${changed} files rewritten, ${citations} citations by name added`)
}

function count(text) {
  return (text.match(/behaviour\.md#[a-z]|\]\(#[a-z]/g) ?? []).length
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2))
