import { beforeEach, inject } from 'vitest'

// every file of the container project: the image its global setup built, or the reason it could
// not, which fails each test here, each counted failed (a failing beforeAll would count them skipped)
beforeEach(() => {
  const error = inject('imageError')
  if (error) throw new Error(error)
})
