// Daily trends drawn on the server as SVG (no chart library, no script, no inline style: colours come from
// classes in dashboard.css). Each chart names itself for screen readers and is followed by its figures as
// a table, so the numbers are there for keyboard and assistive-technology users too.
import { table, fmtInt } from './components';
import { html, type Html } from './html';

export interface Series {
  label: string;
  values: number[];
}

const W = 640;
const H = 220;
const PAD = { left: 44, right: 12, top: 12, bottom: 28 };

/** A round upper bound for the axis (1, 2, 5 × 10^n). */
function niceMax(max: number): number {
  // At least 2, so the middle tick of a chart of small counts is a whole number too.
  if (max <= 2) return 2;
  const exp = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 5, 10]) if (m * exp >= max) return m * exp;
  return 10 * exp;
}

const shortDate = (d: string) => d.slice(5);
/** An axis value: whole numbers as counts, a half step (2.5) with its decimal. */
const tick = (v: number) => (Number.isInteger(v) ? fmtInt(v) : v.toLocaleString('en-US', { maximumFractionDigits: 1 }));

/**
 * Lines over days (one per series, up to four, each a class `series-<n>`), with a y axis of three ticks
 * and the first, middle and last dates on the x axis.
 */
export function lineChart(title: string, dates: string[], series: Series[]): Html {
  const max = niceMax(Math.max(0, ...series.flatMap((s) => s.values)));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (dates.length <= 1 ? plotW / 2 : (i * plotW) / (dates.length - 1));
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const ticks = [0, max / 2, max];
  const labelled = dates.length ? [...new Set([0, Math.floor((dates.length - 1) / 2), dates.length - 1])] : [];
  const id = `chart-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  const summary = series.map((s) => `${s.label}: ${fmtInt(s.values.reduce((a, b) => a + b, 0))} in total`).join('; ');
  return html`<figure class="chart" aria-labelledby="${id}">
<figcaption id="${id}">${title}</figcaption>
<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${`${title}: ${summary}`}" preserveAspectRatio="xMidYMid meet">
${ticks.map((t) => html`<line class="gridline" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}"></line><text class="axis" x="${PAD.left - 6}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end">${tick(t)}</text>`)}
${labelled.map((i, n) => html`<text class="axis" x="${x(i).toFixed(1)}" y="${H - 8}" text-anchor="${n === 0 && labelled.length > 1 ? 'start' : n === labelled.length - 1 && labelled.length > 1 ? 'end' : 'middle'}">${shortDate(dates[i] ?? '')}</text>`)}
${series.map((s, n) => {
    const points = s.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    return html`<polyline class="line series-${n}" points="${points}"></polyline>${s.values.length === 1 ? html`<circle class="dot series-${n}" cx="${x(0).toFixed(1)}" cy="${y(s.values[0] ?? 0).toFixed(1)}" r="3"></circle>` : ''}`;
  })}
</svg>
<ul class="legend">${series.map((s, n) => html`<li><span class="swatch series-${n}" aria-hidden="true"></span>${s.label}</li>`)}</ul>
<details><summary>Figures for ${title.toLowerCase()}</summary>
${table(title, [{ label: 'Date', cell: (i: number) => dates[i] }, ...series.map((s) => ({ label: s.label, numeric: true, cell: (i: number) => fmtInt(s.values[i]) }))], dates.map((_, i) => i))}
</details>
</figure>`;
}

/** Bars for one series (e.g. revenue per month), labelled under each bar when there are few. */
export function barChart(title: string, labels: string[], values: number[], format: (v: number) => string = fmtInt): Html {
  const max = niceMax(Math.max(0, ...values));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = labels.length ? plotW / labels.length : plotW;
  const barW = Math.max(2, slot * 0.7);
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const id = `chart-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  const every = Math.max(1, Math.ceil(labels.length / 12));
  return html`<figure class="chart" aria-labelledby="${id}">
<figcaption id="${id}">${title}</figcaption>
<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${`${title}: ${labels.map((l, i) => `${l} ${format(values[i] ?? 0)}`).join(', ')}`}" preserveAspectRatio="xMidYMid meet">
${[0, max / 2, max].map((t) => html`<line class="gridline" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}"></line><text class="axis" x="${PAD.left - 6}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end">${format(t)}</text>`)}
${values.map((v, i) => html`<rect class="bar series-0" x="${(PAD.left + i * slot + (slot - barW) / 2).toFixed(1)}" y="${y(v).toFixed(1)}" width="${barW.toFixed(1)}" height="${(PAD.top + plotH - y(v)).toFixed(1)}"><title>${labels[i]}: ${format(v)}</title></rect>`)}
${labels.map((l, i) => (i % every === 0 ? html`<text class="axis" x="${(PAD.left + i * slot + slot / 2).toFixed(1)}" y="${H - 8}" text-anchor="middle">${l}</text>` : ''))}
</svg>
<details><summary>Figures for ${title.toLowerCase()}</summary>
${table(title, [{ label: 'Period', cell: (i: number) => labels[i] }, { label: 'Value', numeric: true, cell: (i: number) => format(values[i] ?? 0) }], labels.map((_, i) => i))}
</details>
</figure>`;
}
