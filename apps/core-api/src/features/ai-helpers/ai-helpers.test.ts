// /api/ai/* with no model configured (the embedded default): every helper answers from its offline
// algorithm, labelled offline and never AI-generated, logs its use, reads only the caller's rows, and
// refuses bad input with 400 naming the field, no token with 401, and another account's ids with 404/403.
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { newCampaign, newStory } from '../../test/stories-books-factories';
import { newConversation } from '../../test/conversations-factories';
import { MAX_TEXT } from './ai-helpers.schemas';

let t: TestContext;
let alice: SignedUp;
let bob: SignedUp;

beforeAll(async () => {
  t = await buildTestApp();
  alice = await signUp(t.app);
  bob = await signUp(t.app);
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, who: SignedUp | null = alice) =>
  t.app.inject({ method: 'POST', url: `/api/ai/${url}`, payload: payload as object, ...(who ? { headers: who.headers } : {}) });

async function usageRows(userId: string, feature: string) {
  return t.database.sql<{ provider: string; model: string; llm_cost_usd: number; success: boolean; metadata: Record<string, unknown> }[]>`
    select provider, model, llm_cost_usd::float8 as llm_cost_usd, success, metadata from ai_usage_logs where user_id = ${userId} and feature = ${feature}`;
}
async function dayCount(userId: string): Promise<number> {
  const [row] = await t.database.sql<{ count: number }[]>`select count from ai_request_counters where user_id = ${userId} and period = 'day'`;
  return row?.count ?? 0;
}
const offlineLabels = (body: Record<string, unknown>) => {
  expect(body).toMatchObject({ success: true, source: 'offline', offline: true, aiGenerated: false });
  expect(String(body['model'])).toMatch(/^local-/);
};

async function newImage(userId: string, fields: { title?: string; caption?: string; takenAt?: string }) {
  const [row] = await t.database.sql<{ id: string }[]>`
    insert into images (user_id, storage_key, mime_type, title, caption, taken_at)
    values (${userId}, ${`images/${userId}/${Math.random()}.jpg`}, 'image/jpeg', ${fields.title ?? null}, ${fields.caption ?? null}, ${fields.takenAt ?? null})
    returning id`;
  return row!.id;
}

describe('authentication', () => {
  it.each(['grammar', 'grammar-analysis', 'content-analysis', 'content-refinement', 'memory-prompts', 'story-connections', 'photo-suggestions', 'template-refinement'])(
    '%s without a token → 401 {error: Unauthorized}',
    async (helper) => {
      const res = await post(helper, { text: 'x' }, null);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Unauthorized' });
    },
  );
});

describe('grammar (Harper offline)', () => {
  it('corrects real mistakes, labels the answer offline and logs the use at cost 0', async () => {
    const before = await dayCount(alice.userId);
    const text = 'I ate a apple. We went went to Leeds and it rained alot.';
    const res = await post('grammar', { text, userId: alice.userId, userStyle: 'moderate' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    offlineLabels(body);
    expect(body.model).toBe('local-harper');
    expect(body.level).toBe('moderate');
    expect(body.correctedText).toBe('I ate an apple. We went to Leeds and it rained a lot.');
    for (const c of body.corrections) expect(text.slice(c.start, c.end)).toBe(c.original);
    expect(body.corrections.map((c: { original: string }) => c.original)).toEqual(expect.arrayContaining(['a', 'went went', 'alot']));
    const logs = await usageRows(alice.userId, 'ai:grammar');
    expect(logs).toEqual([expect.objectContaining({ provider: 'local', model: 'local-harper', llm_cost_usd: 0, success: true })]);
    expect(logs[0]!.metadata).toMatchObject({ offline: true });
    expect(await dayCount(alice.userId)).toBe(before + 1);
  }, 60_000);

  it('light level leaves punctuation and capitals alone; the default level comes from the grammar settings', async () => {
    await t.database.sql`insert into user_grammar_settings (user_id, suggestion_level) values (${bob.userId}, 'light') on conflict (user_id) do update set suggestion_level = 'light'`;
    const res = await post('grammar', { text: 'the dog ran home.' }, bob);
    expect(res.statusCode).toBe(200);
    expect(res.json().level).toBe('light');
    expect(res.json().corrections.every((c: { type: string }) => c.type !== 'Capitalization')).toBe(true);
  }, 60_000);

  it('refuses another account’s userId with 403 naming userId, counting and logging nothing', async () => {
    const before = await dayCount(alice.userId);
    const logs = (await usageRows(alice.userId, 'ai:grammar')).length;
    const res = await post('grammar', { text: 'Hello there.', userId: bob.userId });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/userId/);
    expect(await dayCount(alice.userId)).toBe(before);
    expect(await usageRows(alice.userId, 'ai:grammar')).toHaveLength(logs);
    expect(await usageRows(bob.userId, 'ai:grammar')).toHaveLength(1); // only bob's own call above
  });
});

describe('grammar-analysis', () => {
  it('lists issues with offsets, counts, score and readability; explanations only when asked', async () => {
    const text = 'Their going to the store. She dont like it.';
    const withEx = (await post('grammar-analysis', { text, includeExplanations: true })).json();
    offlineLabels(withEx);
    expect(withEx.issues.length).toBeGreaterThanOrEqual(2);
    for (const i of withEx.issues) {
      expect(text.slice(i.start, i.end)).toBe(i.text);
      expect(typeof i.explanation).toBe('string');
    }
    expect(withEx.score).toBeLessThan(100);
    expect(withEx.readability).toMatchObject({ words: 9, sentences: 2 });
    expect(Object.values(withEx.counts as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(withEx.issues.length);
    const without = (await post('grammar-analysis', { text, includeExplanations: false })).json();
    expect(without.issues.every((i: object) => !('explanation' in i))).toBe(true);
  }, 60_000);
});

describe('content-analysis', () => {
  const memory = 'In 1962 we moved to Leeds with Uncle Harry. I remember the smell of the bakery on Briggate.';

  it('measures the memory and recommends what is missing, at most maxRecommendations', async () => {
    const res = await post('content-analysis', { prompt: memory, userId: alice.userId, analysisDepth: 'detailed', maxRecommendations: 3 });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    offlineLabels(body);
    expect(body.analysis.mentions.years).toEqual(['1962']);
    expect(body.analysis.mentions.places).toEqual(expect.arrayContaining(['Leeds']));
    expect(body.analysis.mentions.people).toEqual(expect.arrayContaining(['Uncle Harry']));
    expect(body.analysis.readability).toBeDefined();
    expect(body.recommendations).toHaveLength(3);
    expect(body.recommendations[0]).toMatch(/short/);
  });

  it('reads the caller’s own chat session by sessionId; an unknown or another account’s session is ignored (200, sessionFound false, nothing of theirs read)', async () => {
    await newConversation(t, alice.userId, { sessionId: 'alice-chat', turns: ['My sister Maud lived in Harrogate.', 'Tell me more.', 'She married in 1970.'] });
    await newConversation(t, bob.userId, { sessionId: 'bob-chat', turns: ['Bob’s secret: Cousin Ebenezer lived in Truro.'] });
    const mine = await post('content-analysis', { prompt: 'Notes.', sessionId: 'alice-chat' });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().sessionId).toBe('alice-chat');
    expect(mine.json().sessionFound).toBe(true);
    expect(mine.json().analysis.mentions.years).toEqual(['1970']);
    const theirs = await post('content-analysis', { prompt: 'Notes from 1955.', sessionId: 'bob-chat' });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json()).toMatchObject({ sessionId: 'bob-chat', sessionFound: false });
    expect(theirs.json().analysis.mentions.years).toEqual(['1955']);
    expect(theirs.body).not.toMatch(/Ebenezer|Truro/);
    const unknown = await post('content-analysis', { prompt: 'Notes from 1955.', sessionId: 'sess_1732000000000_abcdef' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toMatchObject({ sessionId: 'sess_1732000000000_abcdef', sessionFound: false });
    expect(unknown.json().analysis.wordCount).toBe(theirs.json().analysis.wordCount);
  });
});

describe('grammar userStyle (spec 000: any text)', () => {
  let carol: SignedUp;
  beforeAll(async () => {
    carol = await signUp(t.app);
  });

  it.each([
    ['light', 'light', 'userStyle'],
    ['Comprehensive', 'comprehensive', 'userStyle'],
    ['casual and warm, keep my voice', 'light', 'userStyle'],
    ['thorough, like an editor', 'comprehensive', 'userStyle'],
  ])('userStyle %j is taken and applied as %s (from %s)', async (userStyle, level, from) => {
    const res = await post('grammar', { text: 'We went went to Leeds.', userStyle }, carol);
    expect(res.statusCode).toBe(200);
    expect(res.json().appliedStyle).toEqual({ level, from, userStyle });
    expect(res.json().level).toBe(level);
  });

  it('an unmatched userStyle falls back to the caller’s stored suggestion level, and says so', async () => {
    await t.database.sql`insert into user_grammar_settings (user_id, suggestion_level) values (${carol.userId}, 'light')
      on conflict (user_id) do update set suggestion_level = 'light'`;
    const res = await post('grammar', { text: 'We went went to Leeds.', userStyle: 'Hemingway' }, carol);
    expect(res.statusCode).toBe(200);
    expect(res.json().appliedStyle).toEqual({ level: 'light', from: 'settings', userStyle: 'Hemingway' });
  });
});

describe('content-refinement', () => {
  it('formal expands contractions, casual makes them, narrative makes paragraphs; the words stay', async () => {
    const formal = (await post('content-refinement', { content: "i don't think it's been  easy , we can't go back.", style: 'formal', preserveVoice: true })).json();
    offlineLabels(formal);
    expect(formal.refinedContent).toBe('I do not think it has been easy, we cannot go back.');
    expect(formal.changes).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'expansion', from: "don't", to: 'do not' })]));
    const casual = (await post('content-refinement', { content: 'We did not know. It is late. I am tired.', style: 'casual' })).json();
    expect(casual.refinedContent).toBe("We didn't know. It's late. I'm tired.");
    const long = Array.from({ length: 8 }, (_, i) => `Sentence number ${i + 1} is here.`).join(' ');
    const narrative = (await post('content-refinement', { content: long, style: 'narrative' })).json();
    expect(narrative.refinedContent.split('\n\n')).toHaveLength(2);
    expect(narrative.refinedContent.replace(/\s+/g, ' ')).toBe(long);
  });

  it('drops fillers only when preserveVoice is false', async () => {
    const kept = (await post('content-refinement', { content: 'Well, um, we was gonna go.', style: 'formal', preserveVoice: true })).json();
    expect(kept.refinedContent).toContain('um');
    expect(kept.refinedContent).toContain('gonna');
    const dropped = (await post('content-refinement', { content: 'Well, um, we was gonna go.', style: 'formal', preserveVoice: false })).json();
    expect(dropped.refinedContent).toBe('Well, we was going to go.');
  });
});

describe('memory-prompts, story-connections, photo-suggestions on the caller’s own data', () => {
  let campaignId: string;
  let s1: string;
  let s2: string;
  let bobStory: string;
  beforeAll(async () => {
    campaignId = (await newCampaign(t.database.sql, alice.userId, 'Grandma')).id;
    await t.database.sql`update campaigns set relationship = 'grandparent' where id = ${campaignId}`;
    s1 = (await newStory(t.database.sql, alice.userId, { title: 'The move', content: '<p>In 1952 we moved to Leeds with Uncle Harry.</p><p>The house on Briggate was cold.</p>' })).id;
    await t.database.sql`update stories set campaign_id = ${campaignId} where id = ${s1}`;
    s2 = (await newStory(t.database.sql, alice.userId, { title: 'Market days', content: '<p>Uncle Harry sold apples in Leeds market in 1975.</p>' })).id;
    await newStory(t.database.sql, alice.userId, { title: 'Holiday', content: '<p>We went to Whitby by train.</p>' });
    bobStory = (await newStory(t.database.sql, bob.userId, { title: 'Bob only', content: '<p>Uncle Harry in Leeds in 1952.</p>' })).id;
  });

  it('memory-prompts builds on the people, places and gaps told so far', async () => {
    const res = await post('memory-prompts', { campaignId, count: 6 });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    offlineLabels(body);
    expect(body.basedOn).toEqual({ stories: 1, recordings: 0, relationship: 'grandparent' });
    expect(body.prompts).toHaveLength(6);
    const texts = body.prompts.map((p: { prompt: string }) => p.prompt).join('\n');
    expect(texts).toMatch(/Uncle Harry/);
    expect(texts).toMatch(/Leeds|Briggate/);
    const all = (await post('memory-prompts', { count: 10 })).json();
    expect(all.prompts.map((p: { prompt: string }) => p.prompt).join('\n')).toMatch(/between 1952 and 1975/);
    expect((await post('memory-prompts', { campaignId }, bob)).statusCode).toBe(404);
  });

  it('story-connections links stories sharing people, places and years; another account’s story is 404', async () => {
    const res = await post('story-connections', {});
    expect(res.statusCode).toBe(200);
    const body = res.json();
    offlineLabels(body);
    expect(body.storiesCompared).toBe(3);
    expect(body.connections).toHaveLength(1);
    expect([...body.connections[0].storyIds].sort()).toEqual([s1, s2].sort());
    expect(body.connections[0].shared).toMatchObject({ people: ['Uncle Harry'], places: expect.arrayContaining(['Leeds']) });
    const theirs = await post('story-connections', { storyIds: [s1, bobStory] });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).not.toMatch(/Bob only/);
  });

  it('photo-suggestions places photos by caption, names and year; unrelated ones are unplaced', async () => {
    const market = await newImage(alice.userId, { title: 'Harry at the market', caption: 'Apples for sale', takenAt: '1975-06-01T00:00:00Z' });
    const house = await newImage(alice.userId, { title: 'Briggate house', takenAt: '1952-01-01T00:00:00Z' });
    const beach = await newImage(alice.userId, { title: 'A beach in Spain' });
    const bare = await newImage(alice.userId, {});
    const res = await post('photo-suggestions', { storyId: s1, imageIds: [market, house, beach, bare] });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    offlineLabels(body);
    expect(body.paragraphs).toBe(2);
    expect(body.suggestions).toEqual(expect.arrayContaining([expect.objectContaining({ imageId: house, paragraphIndex: 1 })]));
    expect(body.unplaced.map((u: { imageId: string }) => u.imageId)).toEqual(expect.arrayContaining([beach, bare]));
    const s2res = (await post('photo-suggestions', { storyId: s2, imageIds: [market] })).json();
    expect(s2res.suggestions[0]).toMatchObject({ imageId: market, paragraphIndex: 0 });
    expect((await post('photo-suggestions', { storyId: bobStory })).statusCode).toBe(404);
    const bobImage = await newImage(bob.userId, { title: 'Bob' });
    expect((await post('photo-suggestions', { storyId: s1, imageIds: [bobImage] })).statusCode).toBe(404);
  });
});

describe('template-refinement', () => {
  it('normalises placeholders and question marks and reports what it cannot fix', async () => {
    const res = await post('template-refinement', { template: 'what was { name } like as a child.  Tell us about [place]. Tell us about [place]. {oops', templateType: 'prompt' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    offlineLabels(body);
    expect(body.refinedTemplate).toBe('What was {{name}} like as a child? Tell us about {{place}}. {oops');
    expect(body.placeholders).toEqual(['name', 'place']);
    expect(body.issues.join(' ')).toMatch(/unbalanced/);
  });
});

describe('bad input → 400 naming the field, nothing counted', () => {
  const cases: [string, string, unknown, RegExp][] = [
    ['grammar', 'missing text', {}, /text/],
    ['grammar', 'blank text', { text: '   ' }, /text/],
    ['grammar', 'text over the cap', { text: 'a'.repeat(MAX_TEXT + 1) }, /text/],
    ['grammar', 'userStyle over 200 characters', { text: 'Hi.', userStyle: 'x'.repeat(201) }, /userStyle/],
    ['grammar', 'userId not a uuid', { text: 'Hi.', userId: 'me' }, /userId/],
    ['grammar-analysis', 'includeExplanations not boolean', { text: 'Hi.', includeExplanations: 'yes' }, /includeExplanations/],
    ['content-analysis', 'missing prompt', { analysisDepth: 'basic' }, /prompt/],
    ['content-analysis', 'wrong analysisDepth', { prompt: 'Hi.', analysisDepth: 'deep' }, /analysisDepth/],
    ['content-analysis', 'maxRecommendations 0', { prompt: 'Hi.', maxRecommendations: 0 }, /maxRecommendations/],
    ['content-refinement', 'wrong style', { content: 'Hi.', style: 'shouty' }, /style/],
    ['content-refinement', 'missing content', { style: 'formal' }, /content/],
    ['memory-prompts', 'count 50', { count: 50 }, /count/],
    ['memory-prompts', 'campaignId not a uuid', { campaignId: 'x' }, /campaignId/],
    ['story-connections', 'one storyId', { storyIds: ['00000000-0000-4000-8000-000000000001'] }, /storyIds/],
    ['photo-suggestions', 'missing storyId', {}, /storyId/],
    ['template-refinement', 'wrong templateType', { template: 'Hi', templateType: 'poem' }, /templateType/],
  ];
  it.each(cases)('%s: %s', async (helper, _label, payload, field) => {
    const before = await dayCount(alice.userId);
    const res = await post(helper, payload);
    expect(res.statusCode).toBe(400);
    expect(`${res.json().error} ${res.json().details ?? ''}`).toMatch(field);
    expect(await dayCount(alice.userId)).toBe(before);
  });
});
