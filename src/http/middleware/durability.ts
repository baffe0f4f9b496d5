import { ApiError } from '../../errors.js'
import { MSG } from '../../messages.js'
import type { Store } from '../../store/store.js'
import { whenReady, type Middleware } from './chain.js'

/**
 * With a data file, an answer leaves only once the change it reports is in the file (docs/behaviour.md#persistence): after the handler, a store with unwritten changes is synced first. A write that fails is
 * answered 503 `Service currently unavailable`, never acknowledged: the store has undone the
 * change (and every change not yet in the file), so no later read shows it.
 */
export function durability({ store }: { store: Store }): Middleware {
  const synced = (res: Response) =>
    store.sync().then(
      () => res,
      () => {
        throw new ApiError(503, MSG.SERVICE_UNAVAILABLE)
      },
    )
  const settled = (res: Response) => (store.dirty ? synced(res) : res)
  return (_c, next) => whenReady(next(), settled)
}
