import { defineConfig } from 'vitest/config'

/** What every project's tests run with. */
const common = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
}

/**
 * Four projects, each runnable alone (`vitest run --project unit`, or `npm run test:unit`,
 * `test:e2e`, `test:slow`, `test:container`); `vitest run` runs them all into one report. The
 * global setup belongs to the run, not to a project: vitest runs it once, whichever projects are
 * chosen; the container project's own (the image's build) runs only when that project does.
 */
export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'reports/vitest.json' }]] : ['default'],
    projects: [
      // the app in the test's own process: app.request(), or its server on port 0
      { test: { ...common, name: 'unit', include: ['test/*.test.ts'] } },
      // real processes (the CLI from dist/), sockets, the browser
      { test: { ...common, name: 'e2e', include: ['test/e2e/**/*.test.ts'] } },
      // the memory soaks: the real CLI under load, its resident memory read from /proc; the Action's npm ci from a bare checkout
      { test: { ...common, name: 'slow', include: ['test/slow/**/*.test.ts'] } },
      // the container image (built once for the project by its global setup) under docker, and
      // the Testcontainers module; Ryuk, Testcontainers' cleanup container, cannot be pulled here
      {
        test: {
          ...common,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          name: 'container',
          include: ['test/container/**/*.test.ts'],
          globalSetup: ['test/container/build-image.ts'],
          setupFiles: ['test/container/image-built.ts'],
          env: { TESTCONTAINERS_RYUK_DISABLED: 'true' },
        },
      },
    ],
  },
})
