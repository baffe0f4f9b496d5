// The benchmarks' load generator: HTTP/1.1 keep-alive connections, one request in flight on each
// (as autocannon with pipelining 1), timing each answer from the moment its request is written.
//
// Why not autocannon: the process that times the requests must not pause, or every request in
// flight during the pause is timed longer by it. autocannon allocates ~10 KB per request, and the
// scavenges that frees them (about 1 ms, 7 times a second at 8k card charges/s, measured) land in
// ~1 % of the answers: right where a p99 is read. This one allocates next to nothing per request:
// each connection reads into one buffer of its own (net's `onread`) and writes its requests from
// one buffer of its own, and the latencies go to the caller's histogram. And it opens every
// connection before it sends the first request, then starts them all at once: no request is timed
// while the others' connections are being set up.
import net from 'node:net'

const CRLF2 = Buffer.from('\r\n\r\n')
const CONTENT_LENGTH = Buffer.from('content-length:')
const TRANSFER_ENCODING = Buffer.from('transfer-encoding:')
const CONNECTION = Buffer.from('connection:')
const CLOSE = Buffer.from('close')

/** Whether `buf[at..]` starts with `name` (lowercase ASCII), in any case. */
function headerIs(buf, at, end, name) {
  if (end - at < name.length) return false
  for (let i = 0; i < name.length; i++) if ((buf[at + i] | 0x20) !== name[i] && buf[at + i] !== name[i]) return false
  return true
}

/**
 * Reads a response head (`buf[start..end]`, the blank line excluded) into `conn`: its `status`,
 * `need` (the body's length) and `closeAfter` (Connection: close). Only Content-Length bodies:
 * every server the bench runs sends one, and a chunked answer is refused loudly rather than timed
 * wrong. `noBody`: the answer to a HEAD request, which has none whatever its head says.
 */
function parseHead(conn, buf, start, end, noBody) {
  if (end - start < 12 || buf[start + 8] !== 0x20) throw new Error('load: not an HTTP/1.1 response')
  const status = (buf[start + 9] - 48) * 100 + (buf[start + 10] - 48) * 10 + (buf[start + 11] - 48)
  let length = -1
  let close = false
  for (let i = start; i < end - 1; i++) {
    if (buf[i] !== 0x0d || buf[i + 1] !== 0x0a) continue
    const at = i + 2
    if (headerIs(buf, at, end, CONTENT_LENGTH)) {
      let j = at + CONTENT_LENGTH.length
      while (buf[j] === 0x20) j++
      length = 0
      for (; j < end && buf[j] >= 48 && buf[j] <= 57; j++) length = length * 10 + (buf[j] - 48)
    } else if (headerIs(buf, at, end, TRANSFER_ENCODING)) {
      throw new Error('load: a response without Content-Length (chunked): not supported')
    } else if (headerIs(buf, at, end, CONNECTION)) {
      let j = at + CONNECTION.length
      while (buf[j] === 0x20) j++
      close = headerIs(buf, j, end, CLOSE)
    }
  }
  if (noBody || status === 204 || status === 304) length = 0
  if (length < 0) throw new Error(`load: a ${status} response without Content-Length`)
  conn.status = status
  conn.need = length
  conn.closeAfter = close
}

/**
 * Runs `connections` keep-alive connections to `url` for `duration` seconds (or until `amount`
 * requests were sent and answered), each sending its next request as soon as its last one is
 * answered. Every connection is opened before the first request is sent.
 *
 * - `body()` gives the bytes of the next request's body (a Buffer, or a string of one-byte
 *   characters, written as latin1), or null for none; it is called once per request (not for
 *   GET and HEAD, which are sent without a body).
 * - `onAnswer(status, ms)` gets every answer and its latency: from the request's write to the last
 *   byte of its answer read, in ms (performance.now()).
 * - `timeout` (s): a request unanswered that long is counted in `timeouts` and its connection made
 *   again.
 * - `maxSeconds`: stop that many seconds after the call whatever happens, requests in flight
 *   dropped (a guard; at the end of `duration` the requests in flight are waited for instead).
 * - An answer with `Connection: close` has its connection made again before the next request.
 *
 * Resolves to { sent, answered, seconds, errors, timeouts, resets }: `seconds` from the first
 * request to the stop or the last answer, whichever came later (every answer counted falls in
 * it); `errors` are socket errors; `resets` requests lost to a connection the server closed (the
 * connection is made again). Rejects when a connection cannot be made, an answer cannot be read
 * (chunked, no Content-Length, not HTTP/1.1), or `body()` or `onAnswer()` throws.
 */
export function runLoad({ url, connections = 10, duration, amount, maxSeconds, method = 'GET', path = '/', headers = {}, body, onAnswer = () => {}, timeout = 10 }) {
  const u = new URL(url)
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1') // an IPv6 address without its brackets
  const port = Number(u.port || 80)
  const noBody = method === 'HEAD'
  const head = (length) => {
    let h = `${method} ${path} HTTP/1.1\r\nhost: ${u.host}\r\n`
    for (const [k, v] of Object.entries(headers)) h += `${k}: ${v}\r\n`
    if (length !== null) h += `content-length: ${length}\r\n`
    return `${h}\r\n`
  }
  const fixedHead = method === 'GET' || method === 'HEAD' ? Buffer.from(head(null), 'latin1') : null

  return new Promise((resolve, reject) => {
    if (u.protocol !== 'http:') return reject(new Error(`load: plain http:// only, not ${u.protocol}`))
    if (!(Number.isInteger(connections) && connections >= 1)) return reject(new Error(`load: connections must be a whole number from 1, not ${connections}`))
    let sent = 0
    let answered = 0
    let errors = 0
    let timeouts = 0
    let resets = 0
    let stopping = false
    let open = 0
    let startedAt = 0
    let stoppedAt = 0
    let lastAnswerAt = 0
    let failed = null
    let done = false
    let ready = 0
    let started = false
    let stopTimer = null
    const conns = []

    const finish = () => {
      if (done || open > 0 || !stopping) return
      done = true
      clearInterval(watch)
      clearTimeout(stopTimer)
      clearTimeout(guard)
      if (failed) reject(failed)
      else resolve({ sent, answered, seconds: started ? (Math.max(stoppedAt, lastAnswerAt) - startedAt) / 1000 : 0, errors, timeouts, resets })
    }
    /**
     * No new request from now on. The requests in flight are waited for (up to `timeout`), unless
     * `hard`: then every connection is closed at once.
     */
    const stop = (hard = false) => {
      if (!stopping) {
        stopping = true
        stoppedAt = performance.now()
      }
      for (const c of conns) if (hard || c.sentAt === 0) c.close()
      finish()
    }
    const fail = (err) => {
      failed ??= err
      stop(true)
    }

    /** Request heads by body length (one per length: bodies of one kind differ little). */
    const heads = new Map()
    const headOf = (length) => {
      let h = heads.get(length)
      if (!h) heads.set(length, (h = Buffer.from(head(length), 'latin1')))
      return h
    }

    class Conn {
      constructor() {
        this.out = Buffer.allocUnsafeSlow(16 << 10)
        this.in = Buffer.allocUnsafeSlow(64 << 10)
        this.pending = null
        this.need = -1
        this.status = 0
        this.closeAfter = false
        this.sentAt = 0
        this.socket = null
        this.closed = false
        this.timedOut = false
        this.ready = false
        this.connect()
      }

      connect() {
        let connected = false
        const s = net.connect({
          host, port, noDelay: true,
          onread: {
            buffer: this.in,
            callback: (n, buf) => {
              try {
                this.read(n, buf)
              } catch (err) {
                fail(err)
              }
            },
          },
        })
        open++
        this.socket = s
        s.once('connect', () => {
          connected = true
          if (!started) {
            if (!this.ready) {
              this.ready = true
              readyOne()
            }
          } else if (this.sentAt === 0) {
            // made again (a reset, a time-out, Connection: close): it goes on with the load
            try {
              this.send()
            } catch (err) {
              fail(err)
            }
          }
        })
        s.on('error', (err) => {
          errors++
          // a connection that could not be made: the server is gone, stop rather than retry
          if (!connected) fail(err)
        })
        s.on('close', () => {
          open--
          if (this.socket === s) this.socket = null
          const lost = this.sentAt !== 0
          this.sentAt = 0
          this.need = -1
          this.pending = null
          this.closeAfter = false
          // a request lost with a connection the server closed (not one timed out, nor closed here)
          if (lost && !this.timedOut && !this.closed) resets++
          this.timedOut = false
          if (!stopping && !this.closed && connected) this.connect()
          finish()
        })
      }

      close() {
        this.closed = true
        this.socket?.destroy()
      }

      send() {
        if (stopping) return this.close()
        if (amount !== undefined && sent >= amount) {
          this.close()
          // every request was sent: done once none is in flight (one lost is not waited for)
          if (conns.every((c) => c.sentAt === 0)) stop()
          return
        }
        let bytes = fixedHead
        if (!bytes) {
          const b = body ? body() : null
          const len = b === null || b === undefined ? 0 : typeof b === 'string' ? Buffer.byteLength(b, 'latin1') : b.length
          const h = headOf(len)
          if (h.length + len > this.out.length) this.out = Buffer.allocUnsafeSlow(2 * (h.length + len))
          let at = h.copy(this.out, 0)
          if (len > 0) at += typeof b === 'string' ? this.out.write(b, at, 'latin1') : b.copy(this.out, at)
          bytes = this.out.subarray(0, at)
        }
        sent++
        this.sentAt = performance.now()
        this.socket.write(bytes)
      }

      read(n, buf) {
        let i = 0
        while (i < n) {
          if (this.need < 0) {
            // the head, possibly over several reads (kept in `pending` until it is whole)
            const from = this.pending ? (this.pending = Buffer.concat([this.pending, buf.subarray(i, n)])) : buf
            const start = this.pending ? 0 : i
            const end = this.pending ? from.length : n
            // `buf` holds earlier reads' bytes past n: a blank line found there is not this one
            const blank = from.indexOf(CRLF2, start)
            if (blank < 0 || blank + 4 > end) {
              if (!this.pending) this.pending = Buffer.from(buf.subarray(i, n))
              return
            }
            if (this.sentAt === 0) throw new Error('load: an answer to no request')
            parseHead(this, from, start, blank, noBody)
            // the body's first byte in this read
            i = n - (end - (blank + 4))
            this.pending = null
          }
          const take = Math.min(this.need, n - i)
          this.need -= take
          i += take
          if (this.need === 0) {
            this.answer()
            // the connection is being made again (Connection: close) or closed: nothing more to read
            if (this.closeAfter || this.closed) return
          }
        }
      }

      answer() {
        const now = performance.now()
        const ms = now - this.sentAt
        this.need = -1
        this.sentAt = 0
        answered++
        lastAnswerAt = now
        onAnswer(this.status, ms)
        // the server closes this connection after its answer: the next request goes on a new one
        // (made when this one's close event comes)
        if (this.closeAfter) this.socket.destroy()
        else this.send()
      }
    }

    const readyOne = () => {
      if (++ready !== connections) return
      started = true
      // every connection is open: all start at once, so that no request waits on the others' set-up
      startedAt = performance.now()
      if (duration !== undefined) stopTimer = setTimeout(() => stop(), duration * 1000)
      for (const c of conns) {
        if (stopping) break
        try {
          if (c.sentAt === 0) c.send()
        } catch (err) {
          fail(err)
        }
      }
    }

    // a request unanswered after `timeout` seconds: counted, its connection made again
    const watch = setInterval(() => {
      const now = performance.now()
      for (const c of conns) {
        if (c.sentAt && !c.timedOut && now - c.sentAt > timeout * 1000) {
          timeouts++
          c.timedOut = true
          c.socket?.destroy()
        }
      }
    }, Math.max(10, Math.min(250, timeout * 250)))
    const guard = maxSeconds !== undefined ? setTimeout(() => stop(true), maxSeconds * 1000) : null
    try {
      for (let k = 0; k < connections; k++) conns.push(new Conn())
    } catch (err) {
      // net.connect threw on its options: stop what was started rather than leave it running
      fail(err)
    }
  })
}
