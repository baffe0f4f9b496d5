import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'

/**
 * One server per data file (docs/behaviour.md#persistence): `FILE.lock`, created exclusively at open and
 * holding the owner's pid (and, where /proc tells it, the process's start time, so that a pid
 * reused by another process after a crash does not keep the lock). A lock whose process is gone
 * (killed, crashed) is taken over; a live one refuses the open with the owner's pid.
 */

/** Data files locked by this process (a second open in the same process is refused too). */
const held = new Set<string>()

export class LockHeld extends Error {
  constructor(readonly pid: number) {
    super(`in use by another paysandbox (pid ${pid}); stop it first, or remove the lock file if that process is gone`)
  }
}

interface LockInfo {
  pid: number
  start?: string
}

/** The start time of a process (field 22 of /proc/PID/stat), or undefined without /proc. */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // fields[0] is the state (field 3): a zombie has exited
    if (fields[0] === 'Z') return 'zombie'
    return fields[19]
  } catch {
    return undefined
  }
}

function alive(info: LockInfo): boolean {
  try {
    process.kill(info.pid, 0)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  const start = startTime(info.pid)
  if (start === 'zombie') return false
  // the pid now names another process than the one that took the lock
  if (start !== undefined && info.start !== undefined && start !== info.start) return false
  return true
}

function readLock(lockFile: string): LockInfo | null {
  try {
    const info = JSON.parse(readFileSync(lockFile, 'utf8')) as LockInfo
    return Number.isInteger(info?.pid) && info.pid > 0 ? info : null
  } catch {
    return null
  }
}

/**
 * Takes the lock of `file`; returns the function that lets it go. Throws LockHeld when a live
 * process holds it, or the error of the file system (a folder that cannot be written).
 */
export function acquireLock(file: string): () => void {
  const lockFile = `${file}.lock`
  if (held.has(lockFile)) throw new LockHeld(process.pid)
  const text = JSON.stringify({ pid: process.pid, start: startTime(process.pid) })
  for (let attempt = 0; ; attempt++) {
    let fd: number
    try {
      fd = openSync(lockFile, 'wx')
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw e
      const info = readLock(lockFile)
      // a live owner keeps it; a dead one's (or an unreadable) lock is taken over
      if (info && info.pid !== process.pid && alive(info)) throw new LockHeld(info.pid)
      rmSync(lockFile, { force: true })
      continue
    }
    try {
      writeSync(fd, text)
    } catch (e) {
      closeSync(fd)
      rmSync(lockFile, { force: true })
      throw e
    }
    closeSync(fd)
    held.add(lockFile)
    let released = false
    const release = () => {
      if (released) return
      released = true
      held.delete(lockFile)
      process.off('exit', release)
      // only our own lock: never one another process took over meanwhile
      if (readLock(lockFile)?.pid === process.pid) rmSync(lockFile, { force: true })
    }
    process.on('exit', release)
    return release
  }
}
