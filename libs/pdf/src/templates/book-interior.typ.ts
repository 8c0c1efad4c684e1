// The book interior as a Typst source (Typst 0.14). Every word a person wrote arrives in
// sys.inputs.data as JSON and is placed as text, never evaluated (typst.ts). Layout: title page,
// copyright page, contents, then each chapter opening on a right-hand (odd) page; running heads (book title
// on the left page, chapter title on the right) and page numbers on the outside edge, none on the title
// and copyright pages, chapter openings or blank pages; mirrored margins whose inside (the gutter) the
// caller sizes from the page count (CONTRACTS §11); hyphenation in the book's language, widows and orphans
// prevented, justified paragraphs in each paragraph's own direction. A right-to-left book (Arabic, Hebrew)
// is bound on the right: its gutter, outside edges and page numbers mirror.
export const BOOK_INTERIOR_TEMPLATE = String.raw`
#let data = json(bytes(sys.inputs.data))
#let book = data.book
#let m = data.page.margins
#let fonts = data.fonts
#let dir-of(d) = if d == "rtl" { rtl } else { ltr }
#let rtl-book = book.dir == "rtl"

#set document(title: book.title, author: book.authors, keywords: book.keywords, date: none)
#set text(font: fonts.serif, fallback: false, lang: book.lang, region: book.region, dir: dir-of(book.dir), size: 11pt, hyphenate: true, costs: (widow: 100%, orphan: 100%))
#set par(justify: true, leading: 0.65em, spacing: 0.65em, first-line-indent: (amount: 1.2em, all: false))

// Where a page is in the book, from markers placed as the book is laid out: the title and copyright
// pages, the contents, a chapter's opening page, its other pages, or a blank page before an opening.
#let page-kind(p) = {
  let marks = query(<marker>)
  if marks.any(mk => mk.location().page() == p and mk.value.kind in ("title", "copyright")) { return (kind: "plain") }
  let opening = marks.find(mk => mk.location().page() == p and mk.value.kind == "start")
  if opening != none { return (kind: "opening", chapter: opening.value.chapter) }
  let last = none
  for mk in marks {
    if mk.location().page() <= p { last = mk }
  }
  if last == none { return (kind: "plain") }
  if last.value.kind == "end" and last.location().page() < p { return (kind: "blank") }
  if last.value.kind in ("toc", "end") and last.value.chapter < 0 { return (kind: "toc") }
  (kind: "body", chapter: last.value.chapter)
}

#let small(body) = text(size: 8.5pt, fill: luma(60), body)
// A right-to-left book is bound on the right (Typst's binding follows the text direction): its odd pages
// lie left of the spine, so their outside edge is the left one.
#let outside-align(p) = if calc.even(p) != rtl-book { left } else { right }
#let aligned(a, p) = if a == "left" { left } else if a == "right" { right } else if a == "outside" { outside-align(p) } else { center }

#let running-head() = context {
  let p = here().page()
  let k = page-kind(p)
  if k.kind != "body" { return }
  let ch = data.chapters.at(k.chapter)
  if not ch.header.show { return }
  let words = if ch.header.text != none { ch.header.text } else if calc.even(p) { book.runningTitle } else { ch.runningTitle }
  set text(font: fonts.serif, style: "italic")
  align(aligned(ch.header.align, p), small(words))
}

#let running-foot() = context {
  let p = here().page()
  let k = page-kind(p)
  if k.kind in ("plain", "blank") { return }
  let ch = if k.kind == "toc" { none } else { data.chapters.at(k.chapter) }
  let show-number = ch == none or ch.footer.numbers
  let position = if ch == none { "outside" } else { ch.footer.position }
  let number-align = aligned(position, p)
  set text(font: fonts.serif)
  if ch != none and ch.footer.show and ch.footer.text != none and k.kind == "body" {
    let text-align = aligned(ch.footer.align, p)
    let text-align = if show-number and text-align == number-align { if number-align == left { right } else { left } } else { text-align }
    place(text-align, small(ch.footer.text))
  }
  if show-number { align(number-align, small(str(p))) }
}

#set page(
  width: data.page.width * 1pt,
  height: data.page.height * 1pt,
  margin: (inside: m.inside * 1in, outside: m.outside * 1in, top: m.top * 1in, bottom: m.bottom * 1in),
  header: running-head(),
  footer: running-foot(),
  header-ascent: 35%,
  footer-descent: 35%,
)

// Chapter titles are headings, so the PDF carries a bookmark per chapter.
#show heading.where(level: 1): it => {
  set align(center)
  set par(justify: false, first-line-indent: 0pt)
  v(data.page.height * 0.12pt)
  block(text(size: 10pt, style: "italic", it.supplement))
  v(0.6em)
  block(text(size: 20pt, weight: "bold", it.body))
  v(2.2em)
}

// Title page.
#[#metadata((kind: "title", chapter: -1)) <marker>]
#[
  #set align(center)
  #set par(justify: false, first-line-indent: 0pt)
  #v(data.page.height * 0.2pt)
  #text(size: 24pt, weight: "bold", book.title)
  #if book.subtitle != none {
    v(1em)
    text(size: 14pt, style: "italic", book.subtitle)
  }
  #v(1fr)
  #if book.author != none { text(size: 13pt, book.author) }
  #v(data.page.height * 0.06pt)
]
#pagebreak()

// Copyright page (the back of the title page), set low as books do.
#[#metadata((kind: "copyright", chapter: -1)) <marker>]
#[
  #set par(justify: false, first-line-indent: 0pt)
  #v(1fr)
  #for line in book.copyright [
    #small(line)
    #parbreak()
  ]
]
#pagebreak(to: "odd")

// Contents: each chapter with the page its opening falls on.
#[#metadata((kind: "toc", chapter: -1)) <marker>]
#align(center, text(size: 16pt, weight: "bold", data.labels.contents))
#v(1.5em)
#context {
  let starts = query(<marker>).filter(mk => mk.value.kind == "start")
  for (i, ch) in data.chapters.enumerate() {
    let page = if i < starts.len() { str(starts.at(i).location().page()) } else { "" }
    block(spacing: 0.8em, grid(
      columns: (auto, 1fr, auto),
      column-gutter: 0.4em,
      text(str(i + 1) + "."),
      [#text(ch.title) #box(width: 1fr, repeat(text(fill: luma(150), [.#h(0.25em)])))],
      text(page),
    ))
  }
}
#[#metadata((kind: "end", chapter: -1)) <marker>]

#for (i, ch) in data.chapters.enumerate() {
  pagebreak(to: "odd")
  set text(font: fonts.at(ch.family), size: ch.size * 1pt)
  set par(leading: ch.leading * 1em, spacing: ch.leading * 1em)
  [#metadata((kind: "start", chapter: i)) <marker>]
  heading(level: 1, supplement: [#data.labels.chapter #(i + 1)#data.labels.chapterSuffix], ch.title)
  for b in ch.blocks {
    let body = b.runs.map(r => text(weight: if r.bold { "bold" } else { "regular" }, style: if r.italic { "italic" } else { "normal" }, r.text)).join()
    let lang = if b.lang != none { b.lang } else { book.lang }
    // Arabic and Devanagari marks stand tall: such lines are spaced by the font's full height.
    set text(top-edge: "ascender", bottom-edge: "descender") if b.tall
    set par(leading: 0em, spacing: 0.3em) if b.tall
    if b.kind == "item" {
      let indent = (b.depth + 1) * 1.2em
      let inner = {
        set text(dir: dir-of(b.dir), lang: lang)
        set par(first-line-indent: 0pt, hanging-indent: 1.2em, justify: false)
        par[#b.marker#h(0.5em)#body]
      }
      if b.dir == "rtl" { pad(right: indent - 1.2em, inner) } else { pad(left: indent - 1.2em, inner) }
    } else {
      set text(dir: dir-of(b.dir), lang: lang)
      par(body)
    }
  }
  [#metadata((kind: "end", chapter: i)) <marker>]
}
`;
