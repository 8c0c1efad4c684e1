// Access matrix of core-api (spec 000 Authentication 4-6): every route of the OpenAPI document that takes an
// id, called as each of the ten actors of libs/testing's access matrix, answers what spec 000 allows, and an
// actor without a role gets exactly the answer of an id that does not exist. Then the token attacks of
// CONTRACTS §2: each answers 401 {error: "Unauthorized"}.
//
// Who is who here (spec 000 Authentication 4-5): the owner holds campaign_owner over their content and
// created the family group; contributor and viewer hold family_contributor and family_viewer through it;
// removed was a contributor and was removed (spec: "access can be revoked at once"); stranger is any other
// account. Support and admin get nothing of a user's content: spec 000 gives those roles only the
// admin-only operations (Authentication 6), none of which takes an id, so they are strangers to content.
// The impersonator is an admin acting as the owner (CONTRACTS §7: the token's role is the owner's), so it
// gets the owner's answers, no more. Anonymous and a free-tools visitor (an X-Session-ID, no token) get
// 401 everywhere but the public routes (spec 000 Authentication 1; CONTRACTS §6: a session id names no account).
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createTokenSigner } from '@story/auth';
import { createObjectStorage } from '@story/providers';
import {
  ACCESS_ACTORS,
  describeAccess,
  expectFor,
  forgeTokens,
  idRoutesOfAll,
  matrixCoverage,
  runAccessMatrix,
  type AccessActor,
  type AnyAccessCase,
  type Expected,
} from '@story/testing';
import { buildTestApp, signUp, PASSWORD, type SignedUp, type TestContext } from '../test/helper';
import { createFamilyActors, type FamilyActors } from '../test/permission-matrix';
import { addMember, newFamilyMemory, newInvitation, newTimelineEvent, setTier } from '../test/family-factories';
import { newBookWithExport, newImageRow, newRecordingRow } from '../test/memories-factories';
import { newConversation } from '../test/conversations-factories';
import { newStory } from '../test/stories-books-factories';

let t: TestContext;
let a: FamilyActors;
let support: SignedUp;
let admin: SignedUp;
let impersonation: string;
let headers: Record<AccessActor, Record<string, string>>;

/** Path parameters that are a closed vocabulary, not a resource id. */
const VOCABULARY: Record<string, string> = {
  provider: 'a sign-in or speech provider name (google, facebook, apple, elevenlabs, local)',
  storage_provider: 'the storage provider name of the gallery upload (s3, local)',
  collection: 'a reference-data collection name',
  relationshipType: 'a relationship type (enum)',
  stepNumber: 'a step of the create flow, beside the campaignId that names the resource',
};

const storage = () => createObjectStorage(t.config.storage, { publicBaseUrl: 'http://127.0.0.1' });

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100000' });
  const sql = t.database.sql;
  a = await createFamilyActors(t.app, sql, 'Access matrix family');
  await setTier(sql, a.owner.userId, 'family');
  support = await signUp(t.app);
  admin = await signUp(t.app);
  await sql`update accounts set role = 'support' where id = ${support.userId}`;
  await sql`update accounts set role = 'admin' where id = ${admin.userId}`;
  // What email-service's impersonation start writes (an auth session of the owner) and signs.
  const [session] = await sql<{ id: string }[]>`insert into auth_sessions (user_id, expires_at, user_agent) values (${a.owner.userId}, now() + interval '15 minutes', 'admin-impersonation') returning id`;
  impersonation = (await createTokenSigner(t.config.secrets.jwtSecret).sign({ userId: a.owner.userId, email: a.owner.email, role: 'user', sessionId: session!.id, actorId: admin.userId, ttlSeconds: 900 })).token;
  headers = {
    owner: a.owner.headers,
    contributor: a.contributor.headers,
    viewer: a.viewer.headers,
    removed: a.removed.headers,
    stranger: a.stranger.headers,
    anonymous: {},
    toolsSession: { 'x-session-id': `sess_${Date.now()}_${randomBytes(8).toString('hex')}` },
    support: support.headers,
    admin: admin.headers,
    impersonator: { authorization: `Bearer ${impersonation}` },
  };
}, 120_000);
afterAll(async () => t.close(), 60_000);

// Expectation helpers, each for one line of spec 000 Authentication 4-5 (the role table):
const SIGNED_OUT = { anonymous: 401, toolsSession: 401 } as const;
/** view_stories: the owner and the active family see; everyone else has no role (404). */
const familySees = (ok: Expected = 200) => expectFor({ owner: ok, impersonator: ok, contributor: ok, viewer: ok, ...SIGNED_OUT }, 404);
/** A campaign_owner permission (edit/delete/invite/manage): family hold a role without it (403). */
const ownerActs = (ok: Expected = 200) => expectFor({ owner: ok, impersonator: ok, contributor: 403, viewer: 403, ...SIGNED_OUT }, 404);
/** create_stories / upload_photos: the owner and contributors; a viewer 403. */
const contributorsAct = (ok: Expected = 201) => expectFor({ owner: ok, impersonator: ok, contributor: ok, viewer: 403, ...SIGNED_OUT }, 404);
/** The account's own records (spec 000 Auth 5: "an account reads only its own"): nobody else has a role. */
const ownOnly = (ok: Expected = 200) => expectFor({ owner: ok, impersonator: ok, ...SIGNED_OUT }, 404);
/** A capability link (the token in the path is the credential): anyone holding it, signed in or not. */
const holderOfLink = (ok: Expected = 200) => expectFor({}, ok);
/** A token that is the credential but the route needs a session too. */
const signedInHolder = (ok: Expected = 200) => expectFor({ ...SIGNED_OUT }, ok);

const ORDER_OWNER_LAST: AccessActor[] = [...ACCESS_ACTORS.filter((x) => x !== 'owner' && x !== 'impersonator'), 'impersonator', 'owner'];

it('every id route answers each actor as spec 000 allows, never revealing an id to those without a role', async () => {
  const sql = t.database.sql;
  const owner = a.owner;
  const at = new Date('2026-03-03T10:00:00Z');
  const g = a.familyGroupId;
  const post = async (url: string, payload: unknown, who: SignedUp = owner) => {
    const res = await t.app.inject({ method: 'POST', url, headers: who.headers, payload: payload as object });
    if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };

  // The owner's content.
  const recording = await newRecordingRow(sql, storage(), owner.userId, { at, title: 'Grandma on the mill' });
  const conversation = await newConversation(t, owner.userId, { turns: ['Tell me about the mill.', 'We lived by the mill in 1952 and baked bread every morning.'] });
  const story = await newStory(sql, owner.userId, { title: 'Owned story', content: '<p>Owner words</p>' });
  const share = await post(`/api/stories/${story.id}/share`, {});
  const book = await newBookWithExport(sql, storage(), owner.userId, { at, title: 'Owned book' });
  await sql`insert into book_chapters (book_id, story_id, chapter_number) values (${book.bookId}, ${story.id}, 1)`;
  await sql`update books set story_ids = ${[story.id]} where id = ${book.bookId}`;
  const image = await newImageRow(sql, storage(), owner.userId, { at, title: 'Lake' });
  const ownersMemory = await newFamilyMemory(sql, { groupId: g, createdBy: owner.userId });
  const event = await newTimelineEvent(sql, { groupId: g, actorId: owner.userId });
  const pending = await newInvitation(sql, { groupId: g, invitedBy: owner.userId, email: `pending.${Date.now()}@example.test` });
  const welcome = await newInvitation(sql, { groupId: g, invitedBy: owner.userId, email: a.contributor.email, role: 'family_contributor', status: 'accepted' });
  await sql`update family_invitations set accepted_by = ${a.contributor.userId}, accepted_at = now() where id = ${welcome.id}`;
  const openFlow = async () => {
    const id = (await post('/api/campaigns/create-flow/start', { title: 'Grandma' })).flow.campaignId as string;
    const step = await t.app.inject({ method: 'PUT', url: `/api/campaigns/create-flow/${id}/step/1`, headers: owner.headers, payload: { storytellerName: 'Rose', relationship: 'grandparent' } });
    if (step.statusCode !== 200) throw new Error(`step 1: ${step.statusCode} ${step.body}`);
    return id;
  };
  const flow = await openFlow();
  const [gift] = await sql<{ id: string }[]>`insert into gifts (user_id, recipient_name, recipient_email, plan_id, code_hash) values (${owner.userId}, 'Rose', 'rose@example.test', 'family', ${randomBytes(8).toString('hex')}) returning id`;
  const [invoice] = await sql<{ id: string }[]>`insert into invoices (user_id, number, amount_cents) values (${owner.userId}, ${`INV-${randomBytes(4).toString('hex')}`}, 999) returning id`;
  const audioToken = (await post(`/api/audio/${recording.id}/share`, {})).share.token as string;
  const paste = async () => (await post('/api/imports/paste', { content: 'Chapter 1\n\n' + 'We lived by the mill. '.repeat(20) })).id as string;
  const importId = await paste();
  const fileKey = `uploads/${owner.userId}/${randomBytes(6).toString('hex')}.pdf`;
  await storage().put(fileKey, Buffer.from('%PDF-1.4 letter'));
  const [file] = await sql<{ id: string }[]>`insert into user_files (user_id, storage_key, folder, file_name, content_type, size_bytes) values (${owner.userId}, ${fileKey}, 'documents', 'letter.pdf', 'application/pdf', 15) returning id`;
  const exportKey = `data-exports/${owner.userId}/${randomBytes(6).toString('hex')}.json`;
  await storage().put(exportKey, Buffer.from('{"stories":[]}'));
  const [dataExport] = await sql<{ id: string }[]>`insert into user_data_exports (user_id, export_type, format, status, storage_key, file_size_bytes, expires_at) values (${owner.userId}, 'all', 'json', 'completed', ${exportKey}, 14, now() + interval '1 day') returning id`;
  const archiveJob = (await post('/api/account/archive', { storytellerId: owner.userId })).job.id as string;

  // Fresh targets for calls that consume or change them.
  const freshStory = async () => ({ storyId: (await newStory(sql, owner.userId, { title: 'Owned story', content: '<p>Owner words</p>' })).id });
  const freshBook = async () => {
    const x = await newStory(sql, owner.userId, { title: 'A' });
    const y = await newStory(sql, owner.userId, { title: 'B' });
    const b = await post('/api/books', { title: 'Owned book', author_name: 'O', trim_size: '6x9', selectedStories: [x.id, y.id] });
    return { bookId: b.book.id as string, a: x.id, b: y.id };
  };
  const placeholder = async () => ({ memberId: (await addMember(sql, { groupId: g, displayName: `Great-aunt ${randomBytes(3).toString('hex')}` })).id });
  const freshConversation = async () => ({ id: (await newConversation(t, owner.userId, { turns: ['Tell me about the mill.', 'We lived by the mill in 1952 and baked bread every morning.'] })).id });
  const fresh = (n: number) => `matrix.${Date.now().toString(36)}.${n}.${randomBytes(3).toString('hex')}@example.test`;

  const S = {
    roles: 'spec 000 Authentication 4-5 (role table; data rows protected; revoked at once)',
    memories: 'spec 000 Memories and archive, "Who may see and download"',
    own: 'spec 000 Authentication 5 ("an account reads only its own")',
    family: 'spec 000 Family + Authentication 4 (invite_family, manage_settings: campaign_owner)',
  };
  const cases: AnyAccessCase[] = [
    // Recordings (spec 000 Recordings; Authentication 4-5: the family view, the owner changes).
    { route: 'GET /api/recordings/{id}', spec: S.roles, params: () => ({ id: recording.id }), expect: familySees() },
    { route: 'PUT /api/recordings/{id}/tags', spec: S.roles, params: () => ({ id: recording.id }), payload: { tags: ['mill'] }, expect: ownerActs() },
    { route: 'GET /api/recordings/{id}/audio', spec: S.roles, params: () => ({ id: recording.id }), expect: familySees() },
    { route: 'GET /api/recordings/{id}/waveform', spec: S.roles, params: () => ({ id: recording.id }), expect: familySees() },
    { route: 'POST /api/recordings/{id}/transcribe', spec: S.roles, params: () => ({ id: recording.id }), expect: ownerActs([202, 409]) },
    // Conversations (spec 000 Conversations; the storyteller's own record, seen by the family).
    { route: 'GET /api/conversations/{id}', spec: S.roles, params: () => ({ id: conversation.id }), expect: familySees() },
    { route: 'POST /api/conversations/{id}/summarize', spec: S.roles, prepare: freshConversation, params: (c) => c, expect: ownerActs() },
    { route: 'POST /api/conversations/{id}/complete', spec: S.roles, prepare: freshConversation, params: (c) => c, expect: ownerActs() },
    { route: 'POST /api/conversations/{id}/analyze', spec: S.roles, params: () => ({ id: conversation.id }), payload: {}, expect: ownerActs() },
    { route: 'POST /api/conversations/{id}/analyze-quality', spec: S.roles, params: () => ({ id: conversation.id }), payload: {}, expect: ownerActs() },
    { route: 'GET /api/conversations/{id}/tags', spec: S.roles, params: () => ({ id: conversation.id }), expect: familySees() },
    { route: 'PUT /api/conversations/{id}/tags', spec: S.roles, params: () => ({ id: conversation.id }), payload: { tags: ['mill'] }, expect: ownerActs() },
    // Stories (spec 000 Stories; Authentication 4: edit/delete_stories are campaign_owner's).
    { route: 'GET /api/stories/{storyId}', spec: S.roles, params: () => ({ storyId: story.id }), expect: familySees() },
    { route: 'PUT /api/stories/{storyId}', spec: S.roles, prepare: freshStory, params: (c) => c, payload: { title: 'Changed' }, expect: ownerActs() },
    { route: 'DELETE /api/stories/{storyId}', spec: S.roles, prepare: freshStory, params: (c) => c, expect: ownerActs() },
    { route: 'POST /api/stories/{storyId}/share', spec: S.roles, params: () => ({ storyId: story.id }), payload: {}, expect: ownerActs(201) },
    { route: 'GET /api/stories/{storyId}/share', spec: S.roles, params: () => ({ storyId: story.id }), expect: ownerActs() },
    {
      route: 'DELETE /api/stories/{storyId}/share/{shareId}',
      spec: S.roles,
      prepare: async () => {
        const { storyId } = await freshStory();
        return { storyId, shareId: (await post(`/api/stories/${storyId}/share`, {})).shareId as string };
      },
      params: (c) => c,
      expect: ownerActs(),
    },
    // A shared story link is public by design (spec 000 Stories: "a shareable link"): the link is the credential.
    { route: 'GET /api/stories/{storyId}/share/{shareId}', spec: 'spec 000 Stories (share: a shareable link)', params: () => ({ storyId: story.id, shareId: share.shareId }), expect: holderOfLink() },
    { route: 'GET /api/stories/{storyId}/typography', spec: S.roles, params: () => ({ storyId: story.id }), expect: familySees() },
    { route: 'PUT /api/stories/{storyId}/typography', spec: S.roles, params: () => ({ storyId: story.id }), payload: { fontFamily: 'Georgia', fontSize: 11, lineHeight: 1.4 }, expect: ownerActs() },
    { route: 'GET /api/stories/{storyId}/header-footer', spec: S.roles, params: () => ({ storyId: story.id }), expect: familySees() },
    { route: 'PUT /api/stories/{storyId}/header-footer', spec: S.roles, params: () => ({ storyId: story.id }), payload: { headerText: 'Mine' }, expect: ownerActs() },
    // Books (spec 000 Books; create_books is campaign_owner's; familyBooks are seen by the family).
    { route: 'GET /api/books/{bookId}', spec: S.roles, params: () => ({ bookId: book.bookId }), expect: familySees() },
    { route: 'PUT /api/books/{bookId}', spec: S.roles, params: () => ({ bookId: book.bookId }), payload: { title: 'Renamed' }, expect: ownerActs() },
    { route: 'DELETE /api/books/{bookId}', spec: S.roles, prepare: freshBook, params: (c) => ({ bookId: c.bookId }), expect: ownerActs() },
    {
      route: 'POST /api/books/{bookId}/chapters',
      spec: S.roles,
      prepare: async () => ({ ...(await freshBook()), extra: (await newStory(sql, owner.userId, { title: 'C' })).id }),
      params: (c) => ({ bookId: c.bookId }),
      payload: (c: { extra: string }) => ({ storyId: c.extra }),
      expect: ownerActs(201),
    },
    { route: 'PUT /api/books/{bookId}/chapters/order', spec: S.roles, prepare: freshBook, params: (c) => ({ bookId: c.bookId }), payload: (c: { a: string; b: string }) => ({ storyIds: [c.b, c.a] }), expect: ownerActs() },
    { route: 'DELETE /api/books/{bookId}/chapters/{storyId}', spec: S.roles, prepare: freshBook, params: (c) => ({ bookId: c.bookId, storyId: c.a }), expect: ownerActs() },
    { route: 'POST /api/books/{bookId}/export', spec: S.roles, params: () => ({ bookId: book.bookId }), payload: { kind: 'cover' }, expect: ownerActs(202) },
    { route: 'GET /api/books/{bookId}/exports', spec: S.roles, params: () => ({ bookId: book.bookId }), expect: familySees() },
    { route: 'GET /api/books/{bookId}/exports/{jobId}', spec: S.roles, params: () => ({ bookId: book.bookId, jobId: book.exportId }), expect: familySees() },
    { route: 'GET /api/books/{bookId}/exports/{jobId}/download', spec: S.roles, params: () => ({ bookId: book.bookId, jobId: book.exportId }), expect: familySees() },
    // Family (spec 000 Family; invite_family and manage_settings are campaign_owner's, create_stories contributors').
    { route: 'GET /api/family/groups/{familyId}', spec: S.family, params: () => ({ familyId: g }), expect: familySees() },
    { route: 'GET /api/family/{familyId}/leaderboard', spec: S.family, params: () => ({ familyId: g }), expect: familySees() },
    { route: 'GET /api/families/{familyId}/members', spec: S.family, params: () => ({ familyId: g }), expect: familySees() },
    { route: 'POST /api/families/{familyId}/members', spec: S.family, params: () => ({ familyId: g }), payload: { displayName: 'Grandpa Joe' }, expect: ownerActs(201) },
    { route: 'GET /api/families/{familyId}/members/{memberId}', spec: S.family, params: () => ({ familyId: g, memberId: a.memberIds.contributor }), expect: familySees() },
    { route: 'PUT /api/families/{familyId}/members/{memberId}', spec: S.family, prepare: placeholder, params: (c) => ({ familyId: g, memberId: c.memberId }), payload: { relationship: 'cousin' }, expect: ownerActs() },
    { route: 'DELETE /api/families/{familyId}/members/{memberId}', spec: S.family, prepare: placeholder, params: (c) => ({ familyId: g, memberId: c.memberId }), expect: ownerActs() },
    {
      route: 'POST /api/families/{familyId}/members/{memberId}/merge',
      spec: S.family,
      prepare: placeholder,
      params: (c) => ({ familyId: g, memberId: c.memberId }),
      payload: () => ({ intoMemberId: a.memberIds.viewer }),
      expect: ownerActs(),
    },
    { route: 'GET /api/families/{familyId}/invitations', spec: S.family, params: () => ({ familyId: g }), expect: ownerActs() },
    {
      route: 'POST /api/families/{familyId}/invitations',
      spec: S.family,
      // Room under the owner's family-members allowance (placeholders and invitations of earlier cases count).
      prepare: async () => {
        await sql`delete from family_relationships where family_group_id = ${g}`;
        await sql`delete from family_members where family_group_id = ${g} and user_id is null`;
        await sql`delete from family_invitations where family_group_id = ${g} and status = 'pending' and email like 'matrix.%'`;
        return {};
      },
      params: () => ({ familyId: g }),
      payload: () => ({ email: fresh(1), role: 'family_viewer' }),
      expect: ownerActs(201),
    },
    {
      route: 'DELETE /api/families/{familyId}/invitations/{invitationId}',
      spec: S.family,
      prepare: async () => ({ invitationId: (await newInvitation(sql, { groupId: g, invitedBy: owner.userId, email: fresh(2) })).id }),
      params: (c) => ({ familyId: g, invitationId: c.invitationId }),
      expect: ownerActs(),
    },
    {
      route: 'POST /api/families/{familyId}/invitations/{invitationId}/resend',
      spec: S.family,
      prepare: async () => ({ invitationId: (await newInvitation(sql, { groupId: g, invitedBy: owner.userId, email: fresh(3) })).id }),
      params: (c) => ({ familyId: g, invitationId: c.invitationId }),
      expect: ownerActs(),
    },
    { route: 'GET /api/families/{familyId}/relationships', spec: S.family, params: () => ({ familyId: g }), expect: familySees() },
    {
      route: 'POST /api/families/{familyId}/relationships',
      spec: S.family,
      prepare: async () => ({ from: (await placeholder()).memberId, to: (await placeholder()).memberId }),
      params: () => ({ familyId: g }),
      payload: (c: { from: string; to: string }) => ({ fromMemberId: c.from, toMemberId: c.to, relationshipType: 'sibling' }),
      expect: contributorsAct(201),
    },
    { route: 'GET /api/families/{familyId}/memories', spec: S.family, params: () => ({ familyId: g }), expect: familySees() },
    { route: 'POST /api/families/{familyId}/memories', spec: S.family, params: () => ({ familyId: g }), payload: { title: 'The old barn' }, expect: contributorsAct(201) },
    { route: 'GET /api/families/{familyId}/memories/{memoryId}', spec: S.family, params: () => ({ familyId: g, memoryId: ownersMemory.id }), expect: familySees() },
    { route: 'PUT /api/families/{familyId}/memories/{memoryId}', spec: S.family, params: () => ({ familyId: g, memoryId: ownersMemory.id }), payload: { title: 'Edited' }, expect: ownerActs() },
    {
      route: 'DELETE /api/families/{familyId}/memories/{memoryId}',
      spec: S.family,
      prepare: async () => ({ memoryId: (await newFamilyMemory(sql, { groupId: g, createdBy: owner.userId })).id }),
      params: (c) => ({ familyId: g, memoryId: c.memoryId }),
      expect: ownerActs(),
    },
    { route: 'GET /api/families/{familyId}/media', spec: S.family, params: () => ({ familyId: g }), expect: familySees() },
    { route: 'GET /api/families/{familyId}/story-prompts', spec: S.family, params: () => ({ familyId: g }), expect: familySees() },
    // comment_on_stories: every family role may react (spec 000 Events: timeline reactions).
    { route: 'POST /api/timeline/events/{eventId}/reactions', spec: S.roles, params: () => ({ eventId: event.id }), payload: { type: 'love' }, expect: familySees() },
    { route: 'DELETE /api/timeline/events/{eventId}/reactions', spec: S.roles, params: () => ({ eventId: event.id }), expect: familySees() },
    // Invitation tokens: the emailed token is the credential (CONTRACTS §6); the preview needs no sign-in,
    // the details a signed-in account, the welcome page only the account that accepted.
    { route: 'GET /api/family/invitations/{token}/public', spec: 'spec 000 Family (".../public (before sign-in)"); CONTRACTS §6', params: () => ({ token: pending.token }), expect: holderOfLink() },
    { route: 'GET /api/family/invitations/{token}', spec: 'spec 000 Family; CONTRACTS §6 (the token is the last segment of inviteUrl)', params: () => ({ token: pending.token }), expect: signedInHolder() },
    { route: 'GET /api/family/welcome/{token}', spec: 'spec 000 Family (welcome of the account that joined)', params: () => ({ token: welcome.token }), expect: expectFor({ contributor: 200, ...SIGNED_OUT }, 404) },
    // Create flow: only the campaign's creator (spec 000 Authentication 5: "Only the campaign creator manages campaign settings").
    { route: 'GET /api/campaigns/create-flow/{campaignId}/resume', spec: S.roles, params: () => ({ campaignId: flow }), expect: ownOnly() },
    { route: 'PUT /api/campaigns/create-flow/{campaignId}/step/{stepNumber}', spec: S.roles, params: () => ({ campaignId: flow, stepNumber: '1' }), missing: () => ({ campaignId: randomUUID(), stepNumber: '1' }), payload: { storytellerName: 'Rose', relationship: 'grandparent' }, expect: ownOnly() },
    { route: 'PUT /api/campaigns/create-flow/{campaignId}/step/familyMembers', spec: S.roles, params: () => ({ campaignId: flow }), payload: { members: [] }, expect: ownOnly() },
    {
      route: 'PUT /api/campaigns/create-flow/{campaignId}/gift-address',
      spec: S.roles,
      params: () => ({ campaignId: flow }),
      payload: { recipientName: 'Rose', line1: '1 Main St', city: 'Portland', region: 'ME', postalCode: '04101', country: 'US' },
      expect: ownOnly(),
    },
    {
      route: 'POST /api/campaigns/create-flow/{campaignId}/complete',
      spec: S.roles,
      // The owner and the impersonator each complete a flow of their own (completing closes it).
      prepare: async (actor) => ({ campaignId: actor === 'owner' || actor === 'impersonator' ? await openFlow() : flow }),
      params: (c) => c,
      order: ORDER_OWNER_LAST,
      expect: ownOnly(),
    },
    // The account's own records.
    { route: 'GET /api/gifts/{id}', spec: `${S.own}; spec 000 Gifts`, params: () => ({ id: gift!.id }), expect: ownOnly() },
    { route: 'GET /api/invoices/{id}', spec: `${S.own}; spec 000 invoices`, params: () => ({ id: invoice!.id }), expect: ownOnly() },
    { route: 'GET /api/imports/{importId}', spec: `${S.own}; spec 000 Imports`, params: () => ({ importId }), expect: ownOnly() },
    { route: 'POST /api/imports/{importId}/process', spec: `${S.own}; spec 000 Imports`, params: () => ({ importId }), order: ORDER_OWNER_LAST, expect: ownOnly() },
    { route: 'POST /api/imports/{importId}/convert', spec: `${S.own}; spec 000 Imports`, prepare: async () => ({ importId: await paste() }), params: (c) => c, payload: {}, expect: ownOnly(201) },
    { route: 'GET /api/upload/files/{fileId}', spec: `${S.own}; spec 000 Uploads`, params: () => ({ fileId: file!.id }), expect: ownOnly() },
    { route: 'GET /api/user/data-exports/{id}', spec: `${S.own}; spec 000 User, privacy (export of the caller's data)`, params: () => ({ id: dataExport!.id }), expect: ownOnly() },
    { route: 'GET /api/user/data-exports/{id}/download', spec: `${S.own}; CONTRACTS §9 (holds only the caller's data)`, params: () => ({ id: dataExport!.id }), expect: ownOnly() },
    // Images and audio: photos and voices of the storyteller, seen by the family, changed by the owner.
    { route: 'GET /api/images/{imageId}', spec: S.roles, params: () => ({ imageId: image.id }), expect: familySees() },
    { route: 'GET /api/images/{imageId}/file', spec: S.roles, params: () => ({ imageId: image.id }), expect: familySees() },
    {
      route: 'DELETE /api/images/{imageId}',
      spec: S.roles,
      prepare: async () => ({ imageId: (await newImageRow(sql, storage(), owner.userId, { at, title: 'Lake' })).id }),
      params: (c) => c,
      expect: ownerActs(),
    },
    { route: 'GET /api/audio/{fileId}', spec: S.roles, params: () => ({ fileId: recording.id }), expect: familySees() },
    { route: 'POST /api/audio/{fileId}/share', spec: S.roles, params: () => ({ fileId: recording.id }), payload: {}, expect: ownerActs(201) },
    // Share links: public, the token is the credential (spec 000 Uploads: GET /api/share/[token]).
    { route: 'GET /api/share/{token}', spec: 'spec 000 Uploads, images, audio ("GET /api/share/[token]")', params: () => ({ token: audioToken }), expect: holderOfLink() },
    { route: 'GET /api/share/{token}/audio', spec: 'spec 000 Uploads, images, audio ("GET /api/share/[token]")', params: () => ({ token: audioToken }), expect: holderOfLink() },
    // Direct upload: the signed ticket is the credential (spec 000 Recording to story 2; CONTRACTS §6).
    {
      route: 'PUT /api/uploads/direct/{key}',
      spec: 'spec 000 Recording to story 2 (HMAC-signed ticket); CONTRACTS §6',
      prepare: async () => {
        const p = await post('/api/uploads/presign', { fileName: 'long.wav', contentType: 'audio/wav', size: 24 });
        return { key: p.key as string, headers: p.headers as Record<string, string> };
      },
      params: (c) => ({ key: c.key }),
      headers: (c: { headers: Record<string, string> }) => c.headers,
      payload: Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt '), Buffer.alloc(8, 7)]),
      expect: holderOfLink(),
    },
    // Memories: "Who may see and download" (switch on, the default).
    { route: 'GET /api/memories/{id}/media', spec: S.memories, params: () => ({ id: recording.id }), query: 'type=recording', expect: familySees() },
    // An archive job is its opener's: family members open their own for the storyteller (POST
    // /api/account/archive) and download that; the rest try the owner's job.
    {
      route: 'GET /api/account/archive/{jobId}/download',
      spec: S.memories,
      prepare: async (actor) => ({
        jobId: actor === 'contributor' || actor === 'viewer' ? ((await post('/api/account/archive', { storytellerId: owner.userId }, a[actor])).job.id as string) : archiveJob,
      }),
      params: (c) => c,
      query: 'part=all',
      expect: familySees(),
    },
  ];

  // The committed document (docs/openapi) and the one the app serves now: a route in either needs a case.
  const served = (await t.app.inject({ url: '/openapi.json' })).json();
  const committed = JSON.parse(readFileSync(path.join(__dirname, '../../../../docs/openapi/core-api.json'), 'utf8'));
  const { ids: routes, all } = idRoutesOfAll([committed, served], VOCABULARY);
  const coverage = matrixCoverage(routes, cases.map((c) => c.route), all);
  expect(coverage).toEqual({ uncovered: [], unknown: [] });

  const result = await runAccessMatrix({ app: t.app, actors: headers, cases, shape: 'core', compare: [401, 404] });
  process.stdout.write(`${describeAccess('core-api', result, routes.length)}\n`);
  expect(result.cells).toBe(cases.length * ACCESS_ACTORS.length);
  expect(result.mismatches).toEqual([]);
  // What was refused wrote nothing: only the owner's and the impersonation's calls (the owner's rights) and
  // the contributor's (create_stories) left rows.
  const count = async (q: Promise<{ n: number }[]>) => (await q)[0]!.n;
  expect(await count(sql`select count(*)::int as n from story_shares where story_id = ${story.id}`)).toBe(3); // the first share + owner + impersonator
  expect(await count(sql`select count(*)::int as n from audio_shares where recording_id = ${recording.id}`)).toBe(3);
  expect(await count(sql`select count(*)::int as n from family_memories where family_group_id = ${g} and title = 'The old barn'`)).toBe(3); // owner, impersonator, contributor
  expect(await count(sql`select count(*)::int as n from export_jobs where book_id = ${book.bookId} and kind = 'cover'`)).toBe(2);
  expect((await sql`select tags from recordings where id = ${recording.id}`)[0]!['tags']).toEqual(['mill']);
}, 600_000);

describe('token attacks (CONTRACTS §2, §3; spec 000 Authentication 1, 3): each is 401 {error: "Unauthorized"}', () => {
  // A route that needs a session and one with an id: the attack must fail on both the same way.
  const probe = (token: string) =>
    Promise.all([
      t.app.inject({ url: '/api/campaigns', headers: { authorization: `Bearer ${token}` } }),
      t.app.inject({ url: `/api/family/groups/${a.familyGroupId}`, headers: { authorization: `Bearer ${token}` } }),
    ]);
  const expectRefused = async (token: string) => {
    for (const res of await probe(token)) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Unauthorized' });
    }
  };
  // The refresh route may say why in `details` (the core shape's optional string, CONTRACTS §3).
  const expectUnauthorizedBody = (body: Record<string, unknown>) => {
    expect(body['error']).toBe('Unauthorized');
    expect(Object.keys(body).filter((k) => k !== 'error' && k !== 'details')).toEqual([]);
    if ('details' in body) expect(typeof body['details']).toBe('string');
  };
  const signIn = async (who: SignedUp) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: who.email, password: PASSWORD } });
    expect(res.statusCode).toBe(200);
    return res.json().session as { access_token: string; refresh_token: string };
  };

  it('expired, tampered, alg none and another secret are refused; the genuine token works', async () => {
    const session = await signIn(a.owner);
    for (const res of await probe(session.access_token)) expect(res.statusCode).toBe(200);
    const forged = forgeTokens(session.access_token, t.config.secrets.jwtSecret);
    for (const [name, token] of Object.entries(forged)) {
      await expectRefused(token).catch((err: Error) => {
        throw new Error(`${name}: ${err.message}`);
      });
    }
    // The impersonation token is a real one: it answers as the owner.
    expect((await t.app.inject({ url: '/api/campaigns', headers: { authorization: `Bearer ${impersonation}` } })).statusCode).toBe(200);
  });

  it('a session ended by sign-out is refused, its refresh token too', async () => {
    const session = await signIn(a.viewer);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/signout', headers: { authorization: `Bearer ${session.access_token}` } });
    expect(out.statusCode).toBe(200);
    await expectRefused(session.access_token);
    const refresh = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: session.refresh_token } });
    expect(refresh.statusCode).toBe(401);
    expectUnauthorizedBody(refresh.json());
  });

  it('a refresh token used twice is refused, and the reuse ends the session it belonged to', async () => {
    const session = await signIn(a.contributor);
    const first = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: session.refresh_token } });
    expect(first.statusCode).toBe(200);
    const renewed = first.json().session as { access_token: string };
    for (const res of await probe(renewed.access_token)) expect(res.statusCode).toBe(200);
    const reuse = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: session.refresh_token } });
    expect(reuse.statusCode).toBe(401);
    expectUnauthorizedBody(reuse.json());
    // Whoever holds the rotated token loses the session too (libs/auth sessions: reuse revokes everywhere).
    await expectRefused(renewed.access_token);
  });

  it('a token in another scheme or with junk around it is refused the same way', async () => {
    for (const authorization of ['Basic dXNlcjpwYXNz', `Bearer ${a.owner.accessToken} x`, 'Bearer', `bearer  ${a.owner.accessToken}`]) {
      const res = await t.app.inject({ url: '/api/campaigns', headers: { authorization } });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Unauthorized' });
    }
  });
});
