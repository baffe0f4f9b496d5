import type { Kit } from '../engine/kit.js'
import type { Area } from '../http/area.js'
import { ok } from '../http/envelope.js'
import { VERSION } from '../version.js'
import { CONTROL_MSG } from './messages.js'

/** The health answer (`GET /_sandbox/health`): the route's below and the start-up gateway's (server.ts), one shape. */
export function healthBody(startedAt: number) {
  return { status: true, message: CONTROL_MSG.RUNNING, data: { version: VERSION, uptime_s: Math.round((Date.now() - startedAt) / 1000) } }
}

/** GET /_sandbox/health and the raw OpenAPI document (no key, no envelope; loaded on first use). */
export const infoArea: Area<object, Kit> = {
  key: 'info',
  build: () => ({}),
  routes: [
    {
      method: 'get', path: '/_sandbox/health', access: 'open', tag: 'control', operationId: 'health', summary: 'Is the sandbox up',
      handler: (c, { startedAt }) => {
        const { message, data } = healthBody(startedAt)
        return ok(c, message, data)
      },
    },
    {
      method: 'get', path: '/_sandbox/openapi.json', access: 'open', tag: 'control', operationId: 'openapi', summary: 'This document (raw OpenAPI 3.1 JSON, no envelope)',
      handler: async (c, { version, areas }) => c.json((await import('../openapi.js')).buildOpenApi(version, areas)),
    },
  ],
}
