import { html, raw } from 'hono/html'
import type { FC, PropsWithChildren } from 'hono/jsx'

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
