// The benchmarks' load generator: HTTP/1.1 keep-alive connections, one request in flight on each
// (as autocannon with pipelining 1), timing each answer from the moment its request is written.
//
// Why not autocannon: the process that times the requests must not pause, or every request in
// flight during the pause is timed longer by it. autocannon allocates ~10 KB per request, and the
// scavenges that frees them (about 1 ms, 7 times a second at 8k card charges/s, measured) land in
// ~1 % of the answers: right where a p99 is read. This one allocates next to nothing per request:
// each connection reads into one buffer of its own (net's `onread`) and writes its requests from
// one buffer of its own, and the latencies go to the caller's histogram.
import net from 'node:net'

const CRLF2 = Buffer.from('\r\n\r\n')
const CONTENT_LENGTH = Buffer.from('content-length:')
const TRANSFER_ENCODING = Buffer.from('transfer-encoding:')

/** Whether `buf[at..]` starts with `name` (lowercase ASCII), in any case. */
function headerIs(buf, at, end, name) {
  if (end - at < name.length) return false
  for (let i = 0; i < name.length; i++) if ((buf[at + i] | 0x20) !== name[i] && buf[at + i] !== name[i]) return false
  return true
}

/**
 * The status and body length of a response head (`buf[start..end]`, the blank line excluded).
 * Only Content-Length bodies: every server the bench runs sends one, and a chunked answer is
 * refused loudly rather than timed wrong.
 */
function parseHead(buf, start, end) {
  if (end - start < 12 || buf[start + 8] !== 0x20) throw new Error('load: not an HTTP/1.1 response')
  const status = (buf[start + 9] - 48) * 100 + (buf[start + 10] - 48) * 10 + (buf[start + 11] - 48)
  let length = -1
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
    }
  }
  if (length < 0) length = status === 204 || status === 304 ? 0 : -1
  if (length < 0) throw new Error(`load: a ${status} response without Content-Length`)
  return { status, length }
}

/**
 * Runs `connections` keep-alive connections to `url` for `duration` seconds (or until `amount`
 * requests were sent), each sending its next request as soon as its last one is answered.
 *
 * - `request()` gives the bytes of the next request's body (a Buffer or a latin1 string), or null
 *   for none; it is called once per request.
 * - `onAnswer(status, ms)` gets every answer and its latency: from the request's write to the last
 *   byte of its answer read, in ms (performance.now()).
 *
 * Resolves to { sent, answered, seconds, errors, timeouts, resets }: `errors` are connections that
 * failed, `timeouts` requests unanswered after `timeout` seconds (their connection is made again),
 * `resets` connections the server closed.
 */
export function runLoad({ url, connections = 10, duration, amount, method = 'GET', path = '/', headers = {}, body, onAnswer = () => {}, timeout = 10 }) {
  const u = new URL(url)
  const host = u.hostname
  const port = Number(u.port || 80)
  const head = (length) => {
    let h = `${method} ${path} HTTP/1.1\r\nhost: ${u.host}\r\n`
    for (const [k, v] of Object.entries(headers)) h += `${k}: ${v}\r\n`
    if (length !== null) h += `content-length: ${length}\r\n`
    return `${h}\r\n`
  }
  const fixedHead = method === 'GET' || method === 'HEAD' ? Buffer.from(head(null), 'latin1') : null

  return new Promise((resolve, reject) => {
    let sent = 0
    let answered = 0
    let errors = 0
    let timeouts = 0
    let resets = 0
    let stopping = false
    let open = 0
    let startedAt = 0
    let stoppedAt = 0
    let failed = null
    const conns = []

    const finish = () => {
      if (open > 0 || !stopping) return
      clearInterval(watch)
      clearTimeout(stopTimer)
      if (failed) reject(failed)
      else resolve({ sent, answered, seconds: (stoppedAt - startedAt) / 1000, errors, timeouts, resets })
    }
    const stop = () => {
      if (stopping) return
      stopping = true
      stoppedAt = performance.now()
      for (const c of conns) if (c.sentAt === 0) c.close()
      finish()
    }
    const fail = (err) => {
      failed ??= err
      for (const c of conns) c.close()
      stop()
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
        this.sentAt = 0
        this.socket = null
        this.closed = false
        this.connect()
      }

      connect() {
        open++
        let connected = false
        const s = net.connect({ host, port, noDelay: true, onread: { buffer: this.in, callback: (n, buf) => this.read(n, buf) } })
        this.socket = s
        s.once('connect', () => {
          connected = true
          if (started) this.send()
          else ready()
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
          if (!stopping && !this.closed && connected) {
            // the server closed it (or a timeout did): a new connection goes on with the load
            if (lost && !this.timedOut) resets++
            this.timedOut = false
            this.connect()
          }
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
          if (answered >= amount) stop()
          return
        }
        let bytes
        if (fixedHead) bytes = fixedHead
        else {
          const b = body ? body() : null
          const len = b === null ? 0 : typeof b === 'string' ? Buffer.byteLength(b, 'latin1') : b.length
          const h = headOf(len)
          if (h.length + len > this.out.length) this.out = Buffer.allocUnsafeSlow(2 * (h.length + len))
          let at = h.copy(this.out, 0)
          if (b !== null) at += typeof b === 'string' ? this.out.write(b, at, 'latin1') : b.copy(this.out, at)
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
            const blank = from.indexOf(CRLF2, start)
            if (blank < 0 || blank + 4 > end) {
              if (!this.pending) this.pending = Buffer.from(buf.subarray(i, n))
              return
            }
            let h
            try {
              h = parseHead(from, start, blank)
            } catch (err) {
              fail(err)
              return
            }
            this.status = h.status
            this.need = h.length
            // the body's first byte in this read
            i = n - (end - (blank + 4))
            this.pending = null
          }
          const take = Math.min(this.need, n - i)
          this.need -= take
          i += take
          if (this.need === 0) this.answer()
        }
      }

      answer() {
        const ms = performance.now() - this.sentAt
        this.need = -1
        this.sentAt = 0
        answered++
        onAnswer(this.status, ms)
        this.send()
      }
    }

    // a request unanswered after `timeout` seconds: counted, its connection made again
    const watch = setInterval(() => {
      const now = performance.now()
      for (const c of conns) {
        if (c.sentAt && now - c.sentAt > timeout * 1000) {
          timeouts++
          c.timedOut = true
          c.socket?.destroy()
        }
      }
    }, 250)
    let connected = 0
    let started = false
    let stopTimer = null
    const ready = () => {
      if (++connected !== connections) return
      started = true
      // every connection is open: all start at once, so that no request waits on the others' set-up
      startedAt = performance.now()
      if (duration !== undefined) stopTimer = setTimeout(stop, duration * 1000)
      for (const c of conns) c.send()
    }
    for (let k = 0; k < connections; k++) conns.push(new Conn())
  })
}
