import type { OrderedItems } from '../../src/http/cursor-list.js'

/**
 * Items kept oldest first, as a collection's order keeps them, read as a cursor list reads a
 * collection: each item is its own facts, dated by `at`, found by the pointer `pointerOf` names.
 */
export function keptInOrder<T extends { at: number }>(items: T[], pointerOf: (item: T) => string): OrderedItems<T, T> {
  return {
    size: items.length,
    dateAt: (i) => items[i].at,
    factsAt: (i) => items[i],
    itemAt: (i) => items[i],
    positionOf: (p) => {
      const i = items.findIndex((x) => pointerOf(x) === p)
      return i < 0 ? undefined : i
    },
  }
}
