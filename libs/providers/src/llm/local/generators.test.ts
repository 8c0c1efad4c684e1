import { interviewQuestion, QUESTION_CATALOGUE } from './interview-question';
import { assessReadiness } from './readiness-assessment';
import { findMentions } from './text';
import { titleSummary } from './title-summary';

const story =
  'I was born in Leeds in 1932, the youngest of five children, and I grew up in a terraced house with a yard at the back. ' +
  'My father worked at the mill on Kirkstall Road and came home every night covered in dust. ' +
  'When the war started we moved to Harrogate to live with my aunt Mabel. ' +
  'She had a little house near the station and baked bread every morning. ' +
  'In 1945 my brother Tom came home from Burma and he was a different man. ' +
  'We went to Scarborough that summer and Tom hardly spoke the whole week.';

describe('findMentions', () => {
  it('finds people, places and times that are in the text', () => {
    const m = findMentions(story);
    expect(m.places).toEqual(expect.arrayContaining(['Leeds', 'Harrogate', 'Burma', 'Scarborough', 'Kirkstall Road']));
    expect(m.people).toEqual(expect.arrayContaining(['Mabel', 'Tom', 'father', 'brother']));
    expect(m.people).not.toContain('Leeds');
    expect(m.times).toEqual(expect.arrayContaining(['1932', '1945']));
  });
});

describe('titleSummary', () => {
  it('uses a short first sentence as the title', () => {
    expect(titleSummary('We moved to Leeds. It rained.')).toEqual({ title: 'We moved to Leeds', summary: 'We moved to Leeds. It rained.' });
  });

  it('titles a long opening by its most mentioned name and extracts the summary verbatim', () => {
    const { title, summary } = titleSummary(story);
    expect(title).toMatch(/^Tom/);
    expect(story).toContain(title.split(',')[0]);
    const picked = summary.match(/[^.!?]+[.!?]/g) ?? [];
    expect(picked.length).toBeGreaterThanOrEqual(1);
    expect(picked.length).toBeLessThanOrEqual(2);
    for (const s of picked) expect(story).toContain(s.trim());
  });
});

describe('interviewQuestion', () => {
  const all = Object.values(QUESTION_CATALOGUE).flat();

  it('asks about a person the storyteller mentioned', () => {
    const q = interviewQuestion({ lastAnswer: 'My grandmother lived with us when I was small.' });
    expect(q).toMatch(/\?$/);
    expect(q).toMatch(/grandmother|when you were small/);
  });

  it('asks what a mentioned place looked like', () => {
    const q = interviewQuestion({ lastAnswer: 'We spent a week at Blackpool.' });
    expect(q).toContain('Blackpool');
    expect(QUESTION_CATALOGUE.place.map((t) => t('Blackpool'))).toContain(q);
  });

  it('asks what life was like at a mentioned time', () => {
    const q = interviewQuestion({ lastAnswer: 'That was 1962.' });
    expect(q).toContain('around 1962');
  });

  it('is deterministic and falls back to the topic, then to an opener', () => {
    expect(interviewQuestion({ lastAnswer: story })).toBe(interviewQuestion({ lastAnswer: story }));
    expect(interviewQuestion({ topic: 'your first job' })).toContain('your first job');
    const opener = interviewQuestion({});
    expect(QUESTION_CATALOGUE.opening.map((t) => t(''))).toContain(opener);
    expect(all.length).toBeGreaterThan(10);
  });
});

describe('assessReadiness', () => {
  it('calls a long, anchored memory ready and says why', () => {
    const a = assessReadiness(story);
    expect(a.ready).toBe(true);
    expect(a.signals.wordCount).toBeGreaterThanOrEqual(60);
    expect(a.signals.sentenceCount).toBe(6);
    expect(a.reasons.join(' ')).toContain('Leeds');
  });

  it('calls a short text not ready, naming the measured shortfalls', () => {
    const a = assessReadiness('It was nice. We liked it.');
    expect(a.ready).toBe(false);
    expect(a.reasons).toEqual(expect.arrayContaining(['only 6 words; at least 60 are needed', 'mentions no people']));
  });

  it('needs at least one person, place or time even when long enough', () => {
    const filler = Array.from({ length: 8 }, () => 'it was a nice thing and we liked it very much indeed.').join(' ');
    const a = assessReadiness(filler);
    expect(a.signals.wordCount).toBeGreaterThanOrEqual(60);
    expect(a.ready).toBe(false);
    expect(a.reasons).toContain('no person, place or time anchors the memory');
  });
});
