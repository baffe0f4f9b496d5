import { ApiError, MSG } from '../../errors.js'
import type { Store } from '../../store/store.js'
import { whenReady, type Middleware } from './chain.js'

/**
 * With a data file, an answer leaves only once the change it reports is in the file (docs/behaviour.md
 * 0): after the handler, a store with unwritten changes is synced first. A write that fails is
 * answered 500, never acknowledged.
 */
export function durability({ store }: { store: Store }): Middleware {
  const synced = (res: Response) =>
    store.sync().then(
      () => res,
      (e) => {
        console.error('paysandbox: could not write the data file:', e)
        throw new ApiError(500, MSG.INTERNAL)
      },
    )
  return (_c, next) => whenReady(next(), (res) => (store.dirty ? synced(res) : res))
}
