import { hostKey } from '../config-options.js'

/**
 * The intercepted hosts (docs/behaviour.md#reaching), matched by name whatever its spelling: case and
 * the trailing dot of a fully qualified name (`api.korapay.com.`) do not let a request past. The
 * proxy's CONNECT and absolute-form requests, the leaf certificate's names and the in-process
 * interception all ask this one matcher.
 */
export class InterceptedHosts {
  private readonly names: ReadonlySet<string>

  constructor(names: Iterable<string>) {
    this.names = new Set([...names].map(hostKey))
  }

  has(name: string): boolean {
    return this.names.has(hostKey(name))
  }

  /** the names, as a certificate carries them */
  list(): string[] {
    return [...this.names]
  }
}
