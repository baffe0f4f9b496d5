import type { Context } from 'hono'
import type { Clocks } from '../../clock.js'
import type { Random } from '../../random.js'
import type { AppEnv, JournalNote } from '../context.js'
import type { Journal } from '../journal.js'
import { whenReady, type Middleware } from './chain.js'

/** Paths whose requests are not journaled (reading the journal or events would drown it). */
const UNJOURNALED = /^\/_sandbox\/(requests|events|ui|health)/

/**
 * Journals every call that has a namespace (docs/behaviour.md#control-api: `GET /_sandbox/requests`): method,
 * path, query, status, duration, the request as noted where it was read (context.ts JournalNote)
 * and the JSON answered. A call refused before its key chose a namespace is not journaled.
 */
export function journal({ journal, clocks, random }: { journal: Journal; clocks: Clocks; random: Random }): Middleware {
  const record = (c: Context<AppEnv>, res: Response, note: JournalNote, elapsed: () => number): Response => {
    const ns = c.get('ns')
    const path = c.req.path
    if (!ns || (path.startsWith('/_sandbox/') && UNJOURNALED.test(path))) return res
    const url = c.req.url
    const q = url.indexOf('?')
    journal.add(
      ns,
      {
        at: clocks.iso(ns),
        method: c.req.method,
        path,
        // a control token sent as ?token= is a secret: never journaled
        query: q < 0 ? '' : url.slice(q).replace(/([?&]token=)[^&]*/g, '$1***'),
        status: res.status,
        // under a seed, 0 (docs/behaviour.md#seed-and-clock-start)
        ms: Math.round(elapsed() * 100) / 100,
      },
      note.request ?? null,
      note.masked === true,
      note.response,
      note.sent,
    )
    return res
  }
  return (c, next) => {
    const elapsed = random.stopwatch()
    const note: JournalNote = {}
    c.set('journal', note)
    return whenReady(next(), (res) => record(c, res, note, elapsed))
  }
}
