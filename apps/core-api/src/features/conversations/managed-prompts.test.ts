// The admin's prompt templates reach the model at run time (spec 001 Admin resources: AI prompt templates
// with version history): core-api built with an OpenAI-compatible provider pointed at a local fake server;
// the interviewer and the summary send the active template version of their key as the system prompt, and the
// built-in prompt while none exists.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';

let server: Server;
let url: string;
const seen: { system?: string }[] = [];
let reply = 'What did the bakery smell like?';

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as { messages: { role: string; content: string }[] };
      seen.push({ system: body.messages.find((m) => m.role === 'system')?.content });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'gpt-fake', choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

let t: TestContext;
let user: SignedUp;
beforeAll(async () => {
  t = await buildTestApp({ LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: url, OPENAI_MODEL: 'gpt-fake' });
  user = await signUp(t.app);
});
afterAll(async () => t.close());

async function template(key: string, content: string) {
  const [row] = await t.database.sql`insert into ai_prompt_templates (key, name, current_version) values (${key}, ${key}, 1) returning id`;
  await t.database.sql`insert into ai_prompt_template_versions (template_id, version, content) values (${row!['id']}, 1, ${content})`;
}

it('the interviewer sends the active conversation.interviewer template; the summary its own key, built-in without a row', async () => {
  await template('conversation.interviewer', 'TEMPLATE: ask one warm question about the bakery.');
  const chat = await t.app.inject({ method: 'POST', url: '/api/conversation/chat', headers: user.headers, payload: { message: 'My grandmother ran a bakery in Leeds.', sessionId: 's1' } });
  expect(chat.statusCode).toBe(200);
  expect(chat.json().response).toBe('What did the bakery smell like?');
  expect(seen.at(-1)!.system).toBe('TEMPLATE: ask one warm question about the bakery.');

  // No conversation.summary row: the built-in summary prompt goes out.
  reply = JSON.stringify({ title: 'The bakery', summary: 'Grandmother ran a bakery in Leeds.' });
  const summary = await t.app.inject({ method: 'POST', url: `/api/conversations/${chat.json().conversationId}/summarize`, headers: user.headers });
  expect(summary.statusCode).toBe(200);
  expect(seen.at(-1)!.system).toMatch(/title and summarise/);
});

it('a feature the admin sends to the local provider takes the offline path, even with a real model configured', async () => {
  const other = await buildTestApp({ LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: url, OPENAI_MODEL: 'gpt-fake' });
  try {
    await other.database.sql`insert into ai_provider_configs (capability, feature, provider) values ('llm', 'conversation:chat', 'local')`;
    const someone = await signUp(other.app);
    const before = seen.length;
    const chat = await other.app.inject({ method: 'POST', url: '/api/conversation/chat', headers: someone.headers, payload: { message: 'My grandmother ran a bakery in Leeds.', sessionId: 's2' } });
    expect(chat.statusCode).toBe(200);
    expect(chat.json().model).toBe('local-interview-question');
    expect(seen.length).toBe(before);
    expect(await other.database.sql`select provider from ai_usage_logs where feature = 'conversation:chat'`).toEqual([{ provider: 'local' }]);
  } finally {
    await other.close();
  }
});
