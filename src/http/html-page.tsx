import { html, raw } from 'hono/html'
import type { Context } from 'hono'
import type { FC, PropsWithChildren } from 'hono/jsx'
import type { AnyArea, CustomerPage } from './area.js'
import { refusalOf } from './envelope.js'

/**
 * The frame of the sandbox's customer pages (the 3DS page, the hosted checkout): a standard
 * document with its own inline style, usable on a phone; the page puts its body in it.
 */
// the doctype keeps the page out of quirks mode
export const HtmlPage: FC<PropsWithChildren<{ title: string; style: string }>> = ({ title, style, children }) => html`<!doctype html>${(
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{title}</title>
      {/* raw: JSX would escape the quotes of the CSS and break the font declaration */}
      <style>{raw(style)}</style>
    </head>
    <body>{children}</body>
  </html>
)}`

/**
 * Whether a path is one of the customer pages the areas declare (`Area.pages`; docs/behaviour.md#checkout-page, docs/behaviour.md#card-3ds-page, docs/behaviour.md#pay-with-bank, docs/behaviour.md#mobile-money-operator-page: the hosted checkout, the 3DS page, the pay with bank page and the
 * mobile-money operator's page). They answer
 * HTML whatever refuses a request to them: the page itself, the body limit (a declared length or a
 * chunked body), a method or path no route serves, or HTTP node cannot parse once the request line
 * named such a page.
 */
export type CustomerPages = (path: string) => CustomerPage | undefined

/** The customer pages of a list of areas (`Area.pages`), `only` those a filter keeps: a path's page, if it is one. */
export function customerPages(areas: readonly AnyArea[], only: (page: CustomerPage) => boolean = () => true): CustomerPages {
  const pages = areas.flatMap((a) => (a.pages && only(a.pages) ? [a.pages] : []))
  return (path) => pages.find((page) => path.startsWith(page.prefix))
}

/** Where the areas' customer pages are (`/checkout/`, `/_sandbox/3ds/` ...). */
export const pagePrefixes = (areas: readonly AnyArea[], only: (page: CustomerPage) => boolean = () => true): string[] =>
  areas.flatMap((a) => (a.pages && only(a.pages) ? [a.pages.prefix] : []))

const REFUSAL_STYLE = 'body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1f2933}'

/** A refusal on a customer page, in words: its message as the title and the page's text. */
export function refusalPageHtml(message: string): string {
  return String(
    <HtmlPage title={message} style={REFUSAL_STYLE}>
      <h1>{message}</h1>
      <p>The page could not take this request. Go back to the page and try again.</p>
    </HtmlPage>,
  )
}

/** The error handler of the customer pages' chain: what `errorEnvelope` is to the API, in HTML. */
export function pageRefusal(err: Error, c: Context): Response {
  const e = refusalOf(err)
  return c.html(refusalPageHtml(e.message), e.status)
}
