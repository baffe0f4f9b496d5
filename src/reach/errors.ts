/** What stops --tls, --proxy or --record from starting: the CLI prints its message (exit 2). */
export class ReachError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ReachError'
  }
}
