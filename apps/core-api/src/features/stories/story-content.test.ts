// Unit tests of the content rules (no database): the sanitiser, the word count and the block parser
// the PDF export lays out.
import { analyseOffline, yearsIn } from '../books/content-analysis';
import { contentBlocks, countWords, plainText, sanitizeContent } from './story-content';

describe('sanitizeContent', () => {
  it.each([
    ['<p>Hi <script>alert(1)</script>there</p>', '<p>Hi there</p>'],
    ['<p style="x" onclick="y()">A</p>', '<p>A</p>'],
    ['<p><a href="javascript:alert(1)">link</a> <img src=x onerror=alert(1)></p>', '<p>link </p>'],
    ['<ul><li><strong>a</strong></li><li><em>b</em></li></ul><ol><li>c</li></ol>', '<ul><li><strong>a</strong></li><li><em>b</em></li></ul><ol><li>c</li></ol>'],
    ['<b>bold</b> <i>it</i>', '<strong>bold</strong> <em>it</em>'],
    ['<iframe src="//evil">x</iframe><style>p{}</style>kept', 'kept'],
    ['Tom & Jerry <3', 'Tom &amp; Jerry &lt;3'],
    ['<p>line<br>break</p>', '<p>line<br />break</p>'],
  ])('%s', (input, expected) => {
    expect(sanitizeContent(input)).toBe(expected);
  });
});

describe('word count and plain text', () => {
  it('counts words across tags and entities, not tags themselves', () => {
    expect(countWords('<p>one <strong>two</strong></p><ul><li>three</li><li>four&amp;five</li></ul>')).toBe(4);
    expect(countWords('')).toBe(0);
    expect(countWords('<p> </p>')).toBe(0);
    expect(plainText('<p>a&lt;b</p><p>c</p>')).toBe('a<b\nc\n');
  });
});

describe('contentBlocks', () => {
  it('turns paragraphs, inline styles, line breaks and nested lists into blocks of runs', () => {
    const blocks = contentBlocks(sanitizeContent('<p>We <strong>drove <em>far</em></strong> away.</p><ol><li>One</li><li>Two<ul><li>Deep</li></ul></li></ol><p>a<br>b &amp; c</p>'));
    expect(blocks).toEqual([
      {
        kind: 'paragraph',
        runs: [
          { text: 'We ', bold: false, italic: false },
          { text: 'drove ', bold: true, italic: false },
          { text: 'far', bold: true, italic: true },
          { text: ' away.', bold: false, italic: false },
        ],
      },
      { kind: 'item', marker: '1.', depth: 1, runs: [{ text: 'One', bold: false, italic: false }] },
      { kind: 'item', marker: '2.', depth: 1, runs: [{ text: 'Two', bold: false, italic: false }] },
      { kind: 'item', marker: '•', depth: 2, runs: [{ text: 'Deep', bold: false, italic: false }] },
      { kind: 'paragraph', runs: [{ text: 'a\nb & c', bold: false, italic: false }] },
    ]);
  });

  it('keeps text outside any paragraph and drops empty blocks', () => {
    expect(contentBlocks('loose text<p> </p><p>x</p>')).toEqual([
      { kind: 'paragraph', runs: [{ text: 'loose text', bold: false, italic: false }] },
      { kind: 'paragraph', runs: [{ text: 'x', bold: false, italic: false }] },
    ]);
  });
});

describe('content analysis (offline)', () => {
  it('finds plausible years only, and orders and gaps by them', () => {
    const now = new Date(Date.UTC(2026, 0, 1));
    expect(yearsIn('In 1931, then the 1950s, not 1776 or 2999, phone 19312', now)).toEqual([1931, 1950]);
    const a = analyseOffline(
      [
        { id: 'a', title: 'Later', content: '<p>2001</p>', wordCount: 1 },
        { id: 'b', title: 'Earlier', content: '<p>1960</p>', wordCount: 300 },
      ],
      now,
    );
    expect(a.suggestedOrder).toEqual(['b', 'a']);
    expect(a.gaps).toEqual([{ from: 1960, to: 2001, years: 41 }]);
    expect(a.totals.chapters).toBe(2);
  });
});
