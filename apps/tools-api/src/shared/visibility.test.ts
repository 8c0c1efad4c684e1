// The one visibility rule as a table: every kind of item against every kind of caller, for each way an
// item is reached (canSee's paths and the list predicate, run against PostgreSQL), plus ownership and the
// responses rule. A row reads: the answer for each caller, in CALLERS order, Y visible / N not.
import { createTestDatabase, type TestDatabase } from '@story/testing';
import {
  canSee,
  canSeeResponse,
  ownsContent,
  visibleContentSql,
  visibleResponsesSql,
  type AccessPath,
  type VisibleContent,
  type VisibleResponse,
  type Viewer,
} from './visibility';

const U1 = '00000000-0000-4000-8000-000000000001';
const U2 = '00000000-0000-4000-8000-000000000002';
const U3 = '00000000-0000-4000-8000-000000000003';
const S1 = 'sess_1700000000000_owner1';

const CALLERS: Record<string, Viewer> = {
  anonymous: { sessionId: '', userId: null, role: null },
  sameSession: { sessionId: S1, userId: null, role: null },
  otherSession: { sessionId: 'sess_1700000000000_other2', userId: null, role: null },
  ownerUser: { sessionId: 'sess_1700000000000_owner3', userId: U1, role: 'user' },
  otherUser: { sessionId: 'sess_1700000000000_other4', userId: U2, role: 'user' },
  admin: { sessionId: 'sess_1700000000000_admin5', userId: U3, role: 'admin' },
};
const CALLER_NAMES = Object.keys(CALLERS);

const past = new Date(Date.now() - 60_000);
const owned = { session_id: S1, user_id: U1 };
const ITEMS: Record<string, VisibleContent & { is_featured: boolean }> = {
  public: { ...owned, is_public: true, is_featured: false, share_type: 'public', share_expires_at: null, expires_at: null, deleted_at: null },
  private: { ...owned, is_public: false, is_featured: false, share_type: 'private', share_expires_at: null, expires_at: null, deleted_at: null },
  unlisted: { ...owned, is_public: false, is_featured: false, share_type: 'public', share_expires_at: null, expires_at: null, deleted_at: null },
  featured: { ...owned, is_public: true, is_featured: true, share_type: 'public', share_expires_at: null, expires_at: null, deleted_at: null },
  expiredLink: { ...owned, is_public: true, is_featured: false, share_type: 'expiring', share_expires_at: past, expires_at: null, deleted_at: null },
  expiredContent: { ...owned, is_public: true, is_featured: false, share_type: 'public', share_expires_at: null, expires_at: past, deleted_at: null },
  deleted: { ...owned, is_public: true, is_featured: false, share_type: 'public', share_expires_at: null, expires_at: null, deleted_at: past },
};

type Path = AccessPath | 'list';
//                 callers:  anonymous sameSession otherSession ownerUser otherUser admin
const VISIBLE: Record<string, Record<Path, string>> = {
  public: /*         */ { direct: 'YYYYYY', link: 'YYYYYY', sharePage: 'YYYYYY', list: 'YYYYYY' },
  private: /*        */ { direct: 'NYNYNY', link: 'NYNYNY', sharePage: 'NYNYNY', list: 'NYNYNN' },
  unlisted: /*       */ { direct: 'NYNYNY', link: 'YYYYYY', sharePage: 'YYYYYY', list: 'NYNYNN' },
  featured: /*       */ { direct: 'YYYYYY', link: 'YYYYYY', sharePage: 'YYYYYY', list: 'YYYYYY' },
  expiredLink: /*    */ { direct: 'NYNYNY', link: 'NYNYNY', sharePage: 'NNNNNN', list: 'NYNYNN' },
  expiredContent: /* */ { direct: 'NNNNNN', link: 'NNNNNN', sharePage: 'NNNNNN', list: 'NNNNNN' },
  deleted: /*        */ { direct: 'NNNNNN', link: 'NNNNNN', sharePage: 'NNNNNN', list: 'NNNNNN' },
};
/** Ownership does not depend on the item's state: same session or same account, never staff. */
const OWNER = 'NYNYNN';

const yn = (answers: boolean[]) => answers.map((a) => (a ? 'Y' : 'N')).join('');

describe('content visibility (canSee)', () => {
  const paths: AccessPath[] = ['direct', 'link', 'sharePage'];
  for (const [item, row] of Object.entries(ITEMS)) {
    for (const path of paths) {
      it(`${item} reached by ${path}: ${VISIBLE[item]![path]}`, () => {
        expect(yn(CALLER_NAMES.map((c) => canSee(row, CALLERS[c]!, path)))).toBe(VISIBLE[item]![path]);
      });
    }
    it(`${item}: owner ${OWNER}`, () => {
      expect(yn(CALLER_NAMES.map((c) => ownsContent(row, CALLERS[c]!)))).toBe(OWNER);
    });
  }

  it('treats no caller at all as anonymous', () => {
    expect(canSee(ITEMS['private']!, null, 'direct')).toBe(false);
    expect(canSee(ITEMS['private']!, null, 'link')).toBe(false);
    expect(canSee(ITEMS['unlisted']!, null, 'link')).toBe(true);
    expect(ownsContent(ITEMS['public']!, null)).toBe(false);
  });

  it('keeps an expiring link alive until its expiry', () => {
    const live = { ...ITEMS['expiredLink']!, share_expires_at: new Date(Date.now() + 60_000).toISOString() };
    expect(yn(CALLER_NAMES.map((c) => canSee(live, CALLERS[c]!, 'sharePage')))).toBe('YYYYYY');
  });
});

//                 callers:  anonymous sameSession otherSession ownerUser otherUser admin
const RESPONSES: Record<string, { row: VisibleResponse; visible: string }> = {
  publicApproved: { row: { ...owned, is_public: true, moderation_status: 'approved' }, visible: 'YYYYYY' },
  publicPending: { row: { ...owned, is_public: true, moderation_status: 'pending' }, visible: 'YYYYYY' },
  publicRejected: { row: { ...owned, is_public: true, moderation_status: 'rejected' }, visible: 'NYNYNN' },
  private: { row: { ...owned, is_public: false, moderation_status: 'approved' }, visible: 'NYNYNN' },
};

describe('response visibility (canSeeResponse)', () => {
  for (const [name, { row, visible }] of Object.entries(RESPONSES)) {
    it(`${name}: ${visible}`, () => {
      expect(yn(CALLER_NAMES.map((c) => canSeeResponse(row, CALLERS[c]!)))).toBe(visible);
    });
  }
});

describe('the list predicates agree with the table (PostgreSQL)', () => {
  let database: TestDatabase;
  const ids: Record<string, string> = {};
  const responseIds: Record<string, string> = {};

  beforeAll(async () => {
    database = await createTestDatabase();
    const sql = database.sql;
    for (const [i, id] of [U1, U2, U3].entries()) await sql`insert into accounts (id, email, role) values (${id}, ${`v${i}@example.test`}, 'user')`;
    for (const [name, r] of Object.entries(ITEMS)) {
      const [row] = await sql<{ id: string }[]>`
        insert into tools_story_prompts (share_code, session_id, user_id, title, content, is_public, is_featured, share_type, share_expires_at, expires_at, deleted_at)
        values (${`sp_${name}`}, ${r.session_id}, ${r.user_id}, ${name}, '{}'::jsonb, ${r.is_public}, ${r.is_featured}, ${r.share_type},
                ${r.share_expires_at ? new Date(r.share_expires_at).toISOString() : null}, ${r.expires_at ? new Date(r.expires_at).toISOString() : null},
                ${r.deleted_at ? new Date(r.deleted_at).toISOString() : null})
        returning id`;
      ids[name] = row!.id;
    }
    for (const [name, { row: r }] of Object.entries(RESPONSES)) {
      const [row] = await sql<{ id: string }[]>`
        insert into tools_responses (tool, prompt_id, session_id, user_id, title, content, is_public, moderation_status)
        values ('story-prompts', ${ids['public']!}, ${r.session_id}, ${r.user_id}, ${name}, 'text', ${r.is_public}, ${r.moderation_status})
        returning id`;
      responseIds[name] = row!.id;
    }
  });
  afterAll(async () => database?.drop());

  it('visibleContentSql lists what the list column says', async () => {
    const sql = database.sql;
    for (const item of Object.keys(ITEMS)) {
      const answers: boolean[] = [];
      for (const c of CALLER_NAMES) {
        const rows = await sql`select 1 from tools_story_prompts t where t.id = ${ids[item]!} and ${visibleContentSql(sql, sql`t`, CALLERS[c]!)}`;
        answers.push(rows.length === 1);
      }
      expect(`${item} ${yn(answers)}`).toBe(`${item} ${VISIBLE[item]!.list}`);
    }
  });

  it('visibleResponsesSql lists what canSeeResponse says', async () => {
    const sql = database.sql;
    for (const [name, { visible }] of Object.entries(RESPONSES)) {
      const answers: boolean[] = [];
      for (const c of CALLER_NAMES) {
        const rows = await sql`select 1 from tools_responses where id = ${responseIds[name]!} and ${visibleResponsesSql(sql, sql`tools_responses`, CALLERS[c]!)}`;
        answers.push(rows.length === 1);
      }
      expect(`${name} ${yn(answers)}`).toBe(`${name} ${visible}`);
    }
  });
});
