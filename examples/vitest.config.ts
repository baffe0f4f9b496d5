import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

/** Runs the examples: `npx vitest run --config examples/vitest.config.ts`. */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['*.test.ts'],
    globalSetup: ['./vitest.global-setup.ts'],
  },
})
