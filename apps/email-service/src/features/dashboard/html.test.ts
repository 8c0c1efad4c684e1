// The tagged template every dashboard page is built with: interpolated text is escaped, markup made by
// `html` is kept, and link targets from data are limited to http(s) and same-site paths.
import { html, joinHtml, queryString, safeHref } from './html';
import { lineChart } from './charts';

describe('html', () => {
  it('escapes every interpolated string, in text and in attribute values', () => {
    const evil = `<script>alert("x")</script>' onmouseover='y' &amp;`;
    const out = html`<p title="${evil}">${evil}</p>`.value;
    expect(out).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;y&#39; &amp;amp;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;y&#39; &amp;amp;</p>',
    );
    expect(out).not.toContain('<script>');
  });

  it('keeps nested html and lists of it, escapes lists of strings, renders null, undefined and false as nothing', () => {
    const items = ['<a>', 'b'];
    expect(html`<ul>${items.map((i) => html`<li>${i}</li>`)}</ul>`.value).toBe('<ul><li>&lt;a&gt;</li><li>b</li></ul>');
    expect(html`${['<x>', 1, null, undefined, false]}`.value).toBe('&lt;x&gt;1');
    expect(html`${0}`.value).toBe('0');
    expect(joinHtml(['<a>', html`<b>`], ', ').value).toBe('&lt;a&gt;, <b>');
  });

  it('is not fooled by an object that looks like markup', () => {
    const fake = { value: '<script>alert(1)</script>', toString: () => '<script>alert(1)</script>' };
    expect(html`${fake as unknown as string}`.value).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it.each([
    ['https://example.test/a?b=1', 'https://example.test/a?b=1'],
    ['http://example.test/', 'http://example.test/'],
    ['/dashboard/users', '/dashboard/users'],
    ['javascript:alert(1)', null],
    ['JaVaScRiPt:alert(1)', null],
    ['data:text/html,<script>alert(1)</script>', null],
    ['//evil.example/x', null],
    ['vbscript:x', null],
    ['', null],
    [null, null],
  ])('safeHref(%s) is %s', (input, expected) => {
    expect(safeHref(input)).toBe(expected);
  });

  it('builds query strings without empty parameters', () => {
    expect(queryString({ a: 'x y', b: '', c: undefined, d: 0, e: false })).toBe('?a=x+y&d=0');
    expect(queryString({})).toBe('');
  });

  it('draws a chart as SVG whose labels are escaped and whose figures are also a table', () => {
    const svg = lineChart('Signups <per> day', ['2026-11-01', '2026-11-02'], [{ label: '<b>', values: [1, 3] }]).value;
    expect(svg).toContain('<svg viewBox=');
    expect(svg).toContain('Signups &lt;per&gt; day');
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('<table>');
    expect(svg).not.toMatch(/\sstyle=/);
  });
});
