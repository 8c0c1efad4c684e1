// The cover as a Typst source (Typst 0.14): one page holding the whole spread, left to right back cover,
// spine, front cover, with the background running into the 0.125 in bleed on every outer edge
// (CONTRACTS §11). Text keeps 0.375 in inside the trim on the covers; spine text, when the spine carries
// any, keeps 1/16 in from each fold. The back cover leaves its lower outside corner empty for the
// barcode print services place there. User text arrives as JSON in sys.inputs.data and is only placed.
export const BOOK_COVER_TEMPLATE = String.raw`
#let data = json(bytes(sys.inputs.data))
#let book = data.book
#let g = data.geometry
#let pt(x) = x * 1pt
#let safe = 0.375in
#let fg = rgb(data.colors.text)

#set document(title: book.title + " (cover)", author: book.authors, date: none)
#set page(width: pt(g.mediaWidth), height: pt(g.mediaHeight), margin: 0pt, fill: rgb(data.colors.background))
#set text(font: data.font, fallback: false, lang: book.lang, region: book.region, fill: fg, hyphenate: false)
#set par(justify: false)

// Front cover: title high, author low.
#place(top + left, dx: pt(g.bleed + g.trimWidth + g.spineWidth) + safe, dy: pt(g.bleed) + safe,
  box(width: pt(g.trimWidth) - 2 * safe, height: pt(g.trimHeight) - 2 * safe)[
    #set align(center)
    #v(pt(g.trimHeight) * 0.18)
    #text(size: pt(g.trimWidth / 13), weight: "bold", book.title)
    #if book.subtitle != none {
      v(0.8em)
      text(size: pt(g.trimWidth / 26), style: "italic", book.subtitle)
    }
    #v(1fr)
    #if book.author != none { text(size: pt(g.trimWidth / 22), book.author) }
    #v(pt(g.trimHeight) * 0.06)
  ])

// Back cover: the title and author small at the top; the lower outside corner stays free for a barcode.
#place(top + left, dx: pt(g.bleed) + safe, dy: pt(g.bleed) + safe,
  box(width: pt(g.trimWidth) - 2 * safe, height: pt(g.trimHeight) * 0.6)[
    #set align(center)
    #v(pt(g.trimHeight) * 0.12)
    #text(size: pt(g.trimWidth / 24), weight: "bold", book.title)
    #if book.author != none {
      v(0.6em)
      text(size: pt(g.trimWidth / 30), book.author)
    }
  ])

// Spine: title and author read top to bottom, only when the spine is wide enough.
#if g.spineText {
  let inset = 0.0625in
  place(top + left, dx: pt(g.bleed + g.trimWidth) + inset, dy: pt(g.bleed) + safe,
    box(width: pt(g.spineWidth) - 2 * inset, height: pt(g.trimHeight) - 2 * safe,
      align(center + horizon, rotate(90deg, reflow: true,
        box(width: pt(g.trimHeight) - 2 * safe,
          text(size: calc.min(pt(g.spineWidth) * 0.45, 12pt), weight: "bold", book.spineTitle)
          + if book.author != none { h(1fr) + text(size: calc.min(pt(g.spineWidth) * 0.4, 10pt), book.author) })))))
}
`;
