import { MissingVariablesError, placeholdersIn, renderEmail, renderTemplate } from './render';

describe('renderTemplate', () => {
  it('replaces placeholders with and without spaces, and unknown ones with nothing', () => {
    expect(renderTemplate('Hi {{name}}, {{ count }} new {{missing}}!', { name: 'Ann', count: 3 }, { escapeHtml: false })).toBe('Hi Ann, 3 new !');
  });
  it('escapes the five HTML characters only when asked', () => {
    const v = { n: `<b>"Tom" & 'Jerry'</b>` };
    expect(renderTemplate('{{n}}', v, { escapeHtml: true })).toBe('&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;');
    expect(renderTemplate('{{n}}', v, { escapeHtml: false })).toBe(v.n);
  });
  it('resolves dotted names as keys first, then as paths', () => {
    expect(renderTemplate('{{a.b}} {{user.name}}', { 'a.b': 'flat', user: { name: 'Z' } }, { escapeHtml: false })).toBe('flat Z');
  });
  it('lists placeholders once each', () => {
    expect(placeholdersIn('{{a}} {{ b }} {{a}} {{1bad}} {{c.d}}')).toEqual(['a', 'b', 'c.d']);
  });
});

describe('optional blocks {{#name}}...{{/name}}', () => {
  it('render their inside only when the variable has a value, escaped as everything else', () => {
    const text = 'A{{#note}} [{{note}}]{{/note}} B{{# other }}never{{/ other }}';
    expect(renderTemplate(text, { note: '<i>hi</i>' }, { escapeHtml: true })).toBe('A [&lt;i&gt;hi&lt;/i&gt;] B');
    expect(renderTemplate(text, { note: '   ' }, { escapeHtml: true })).toBe('A B');
    expect(renderTemplate(text, {}, { escapeHtml: false })).toBe('A B');
    expect(placeholdersIn(text)).toEqual(['note', 'other']);
  });
});

describe('renderEmail', () => {
  const template = {
    subjectTemplate: '{{inviter_name}} invited you to {{family_name}}',
    htmlTemplate: '<p>Hello {{user_name}}, {{inviter_name}} invited you.</p>',
    textTemplate: 'Hello {{user_name}}, {{inviter_name}} invited you.',
    defaultVariables: { user_name: 'there' },
    requiredVariables: ['inviter_name', 'family_name'],
  };
  it('merges defaults under the given variables and escapes only the HTML', () => {
    const out = renderEmail(template, { inviter_name: '<script>x</script> & Co', family_name: 'Smiths' });
    expect(out.subject).toBe('<script>x</script> & Co invited you to Smiths');
    expect(out.html).toBe('<p>Hello there, &lt;script&gt;x&lt;/script&gt; &amp; Co invited you.</p>');
    expect(out.text).toBe('Hello there, <script>x</script> & Co invited you.');
    expect(out.variables).toEqual({ user_name: 'there', inviter_name: '<script>x</script> & Co', family_name: 'Smiths' });
    expect(renderEmail(template, { inviter_name: 'A', family_name: 'B', user_name: 'Ann' }).html).toContain('Hello Ann');
  });
  it('throws MissingVariablesError naming absent or empty required variables', () => {
    try {
      renderEmail(template, { inviter_name: '  ' });
      throw new Error('expected a throw');
    } catch (err) {
      expect(err).toBeInstanceOf(MissingVariablesError);
      expect((err as MissingVariablesError).missing).toEqual(['inviter_name', 'family_name']);
    }
  });
  it('keeps a null text template null and strips newlines from the subject', () => {
    expect(renderEmail({ ...template, textTemplate: null, subjectTemplate: 'a\n{{inviter_name}}' }, { inviter_name: 'b', family_name: 'c' })).toMatchObject({ text: null, subject: 'a b' });
  });
});
