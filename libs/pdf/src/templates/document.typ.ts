// A plain document as a Typst source (Typst 0.14): headings, small meta lines, "label: value" fields,
// paragraphs and list items, on A4 or Letter with an optional page colour. The tools exports (spec 002)
// and the data export's stories PDF use it. User text arrives as JSON in sys.inputs.data and is only placed.
export const DOCUMENT_TEMPLATE = String.raw`
#let data = json(bytes(sys.inputs.data))
#let c = data.colors
#let dir-of(d) = if d == "rtl" { rtl } else { ltr }

#set document(title: data.title, author: data.authors, keywords: data.keywords, date: none)
#set page(
  paper: data.paper,
  margin: data.margin * 1pt,
  fill: if c.background != none { rgb(c.background) } else { none },
  footer: context align(center, text(size: 0.75em, fill: rgb(c.muted), str(here().page()) + " / " + str(counter(page).final().first()))),
)
#set text(font: data.font, fallback: false, lang: data.lang, region: data.region, size: data.size * 1pt, fill: rgb(c.text), hyphenate: true)
#set par(justify: false, leading: 0.6em, spacing: 0.9em)
#show heading: set text(fill: rgb(c.accent))
#show heading.where(level: 1): set text(size: 2em)
#show heading.where(level: 2): set text(size: 1.5em)
#show heading.where(level: 3): set text(size: 1.2em)

#let runs(list) = list.map(r => text(weight: if r.bold { "bold" } else { "regular" }, style: if r.italic { "italic" } else { "normal" }, r.text)).join()

#for b in data.blocks {
  let lang = if b.lang != none { b.lang } else { data.lang }
  if b.type == "heading" {
    if b.newPage { pagebreak(weak: true) }
    set text(dir: dir-of(b.dir), lang: lang)
    heading(level: b.level, b.text)
  } else if b.type == "meta" {
    set text(dir: dir-of(b.dir), lang: lang)
    par(text(size: 0.85em, fill: rgb(c.muted), b.text))
  } else if b.type == "field" {
    set text(dir: dir-of(b.dir), lang: lang)
    par[#text(weight: "bold", b.label + ":") #b.value]
  } else if b.type == "item" {
    set text(dir: dir-of(b.dir), lang: lang)
    let indent = b.depth * 1.2em
    let inner = par(hanging-indent: 1.2em)[#b.marker#h(0.5em)#runs(b.runs)]
    if b.dir == "rtl" { pad(right: indent, inner) } else { pad(left: indent, inner) }
  } else {
    set text(dir: dir-of(b.dir), lang: lang)
    par(runs(b.runs))
  }
}
`;
