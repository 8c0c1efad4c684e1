// After the load: the database against the ledger. Every acknowledged (2xx) write must be there exactly once
// and whole; a refused write must have left nothing; a write whose answer never arrived may be absent or
// whole, never half. Then the invariants that span writes: stored objects without a recording row, delivery
// counts against the queue rows' stamps.
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import postgres from 'postgres';
import type { WriteKind, WriteRecord } from './mix';

export interface KindVerdict {
  kind: WriteKind;
  acknowledged: number;
  refused: number;
  unknown: number;
  /** Acknowledged but not in the database. */
  lost: number;
  /** More than one row for one marker. */
  duplicated: number;
  /** A row that is there but incomplete (no object, no conversion record, unmatched event, ...), or written after a refusal. */
  halfWritten: number;
  problems: string[];
}

export interface Verification {
  kinds: KindVerdict[];
  /** Cross-write invariants: name, expected, actual. */
  invariants: { name: string; expected: number; actual: number }[];
}

type Rows = Map<string, Record<string, unknown>[]>;

const group = (rows: Record<string, unknown>[], key: string): Rows => {
  const map: Rows = new Map();
  for (const r of rows) {
    const k = String(r[key]);
    map.set(k, [...(map.get(k) ?? []), r]);
  }
  return map;
};

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) out.push(...(await listFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`)));
    else out.push(`${prefix}${entry.name}`);
  }
  return out;
}

export async function verify(databaseUrl: string, runId: string, ledger: WriteRecord[], storageRoot: string): Promise<Verification> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
  const objectsRoot = path.join(storageRoot, 'objects');
  try {
    const uploads = group(
      await sql`select r.id, r.title, r.status, r.storage_key, (select count(*)::int from jobs j where j.dedupe_key = 'recording:' || r.id::text) as jobs
                  from recordings r where r.title like ${`load-up-${runId}-%`}`,
      'title',
    );
    const conversions = group(
      await sql`select s.id, s.title, (select count(*)::int from story_conversions c where c.story_id = s.id) as conversions,
                       (select array_agg(r.id::text) from recordings r where r.story_id = s.id) as recordings,
                       (select array_agg(c.source_id::text) from story_conversions c where c.story_id = s.id) as sources
                  from stories s where s.title like ${`load-cv-${runId}-%`}`,
      'title',
    );
    const sessions = group(await sql`select id, user_agent from auth_sessions where user_agent like ${`load-bench load-si-${runId}-%`}`, 'user_agent');
    const generated = group(
      await sql`select id, generation_options->>'customContext' as marker from tools_plot_twists where generation_options->>'customContext' like ${`load-gen-${runId}-%`}`,
      'marker',
    );
    const events = group(await sql`select id, svix_id, matched, processed_at, queue_id from email_delivery_events where svix_id like ${`msg_load_${runId}_%`}`, 'svix_id');
    // Conversions whose recording was never pointed at its story (or the reverse) count as half-written below.
    const convertedRecordings = new Map(
      (await sql<{ id: string; story_id: string | null }[]>`select id, story_id from recordings where title like ${`load-up-${runId}-%`} or title like 'Seed recording %'`).map((r) => [r.id, r.story_id]),
    );

    const check = (kind: WriteKind, rowsOf: (w: WriteRecord) => Record<string, unknown>[] | undefined, whole: (w: WriteRecord, row: Record<string, unknown>) => string | undefined): KindVerdict => {
      const v: KindVerdict = { kind, acknowledged: 0, refused: 0, unknown: 0, lost: 0, duplicated: 0, halfWritten: 0, problems: [] };
      const note = (p: string) => {
        if (v.problems.length < 5) v.problems.push(p);
      };
      for (const w of ledger.filter((l) => l.kind === kind)) {
        const rows = rowsOf(w) ?? [];
        v[w.outcome === 'ack' ? 'acknowledged' : w.outcome]++;
        if (rows.length > 1) {
          v.duplicated++;
          note(`${w.marker}: ${rows.length} rows`);
          continue;
        }
        const row = rows[0];
        if (w.outcome === 'ack' && !row) {
          v.lost++;
          note(`${w.marker}: acknowledged (${w.status}) but not in the database`);
          continue;
        }
        if (w.outcome === 'refused' && row) {
          v.halfWritten++;
          note(`${w.marker}: refused with ${w.status} but written`);
          continue;
        }
        if (!row) continue;
        if (w.outcome === 'ack' && w.id && String(row['id']) !== w.id) {
          v.halfWritten++;
          note(`${w.marker}: the answer named ${w.id}, the database holds ${String(row['id'])}`);
          continue;
        }
        const broken = whole(w, row);
        if (broken) {
          v.halfWritten++;
          note(`${w.marker}: ${broken}`);
        }
      }
      return v;
    };

    const convert = check(
      'convert',
      (w) => conversions.get(w.marker),
      (w, r) => {
        if (r['conversions'] !== 1) return `${String(r['conversions'])} story_conversions rows`;
        const recs = (r['recordings'] as string[] | null) ?? [];
        if (recs.length !== 1 || recs[0] !== w.sourceId) return `recordings pointing at the story: ${recs.join(',') || 'none'} (converted ${w.sourceId})`;
        const sources = (r['sources'] as string[] | null) ?? [];
        if (sources[0] !== w.sourceId) return `conversion source ${sources[0]} (converted ${w.sourceId})`;
        return undefined;
      },
    );
    const kinds = [
      check('signin', (w) => sessions.get(`load-bench ${w.marker}`), () => undefined),
      check(
        'upload',
        (w) => uploads.get(w.marker),
        (_w, r) => {
          if (r['status'] !== 'completed') return `status ${String(r['status'])}`;
          const key = r['storage_key'] as string | null;
          if (!key || !existsSync(path.join(objectsRoot, ...key.split('/')))) return `stored object ${String(key)} missing`;
          if (r['jobs'] !== 1) return `${String(r['jobs'])} processing jobs`;
          return undefined;
        },
      ),
      convert,
      check('generate', (w) => generated.get(w.marker), () => undefined),
      check(
        'webhook',
        (w) => events.get(w.marker),
        (_w, r) => (r['matched'] !== true || !r['processed_at'] || !r['queue_id'] ? `event not applied (matched ${String(r['matched'])})` : undefined),
      ),
    ];
    // A refused conversion must not have linked its recording either.
    for (const w of ledger.filter((l) => l.kind === 'convert' && l.outcome === 'refused' && l.sourceId)) {
      if (w.sourceId && convertedRecordings.get(w.sourceId)) {
        convert.halfWritten++;
        if (convert.problems.length < 5) convert.problems.push(`${w.marker}: refused with ${w.status} but recording ${w.sourceId} points at a story`);
      }
    }

    // Objects in storage that no recording row names: a failed upload that left its file behind.
    const keys = new Set((await sql<{ storage_key: string }[]>`select storage_key from recordings where storage_key is not null`).map((r) => r.storage_key));
    const objects = (await listFiles(objectsRoot)).filter((k) => k.startsWith('recordings/'));
    const orphans = objects.filter((k) => !keys.has(k)).length;
    const leftovers = (await listFiles(path.join(storageRoot, 'tmp'))).length;

    // Delivery counts: each stamp counted once, however many events repeat it.
    const [counts] = await sql<{ delivered: number; opened: number; clicked: number; stamped_delivered: number; stamped_opened: number; stamped_clicked: number; total_opened: number; total_clicked: number }[]>`
      select (select coalesce(sum(delivered), 0)::int from email_analytics a join email_templates t on t.id = a.template_id where t.name = 'load_story_digest') as delivered,
             (select coalesce(sum(opened), 0)::int from email_analytics a join email_templates t on t.id = a.template_id where t.name = 'load_story_digest') as opened,
             (select coalesce(sum(clicked), 0)::int from email_analytics a join email_templates t on t.id = a.template_id where t.name = 'load_story_digest') as clicked,
             (select count(*)::int from email_send_queue where provider_message_id like ${`load-msg-${runId}-%`} and delivered_at is not null) as stamped_delivered,
             (select count(*)::int from email_send_queue where provider_message_id like ${`load-msg-${runId}-%`} and opened_at is not null) as stamped_opened,
             (select count(*)::int from email_send_queue where provider_message_id like ${`load-msg-${runId}-%`} and clicked_at is not null) as stamped_clicked,
             (select total_opened from email_templates where name = 'load_story_digest') as total_opened,
             (select total_clicked from email_templates where name = 'load_story_digest') as total_clicked`;
    if (!counts) throw new Error('the delivery counts query returned no row');
    const c = counts;
    const invariants = [
      { name: 'stored recording objects without a row', expected: 0, actual: orphans },
      { name: 'half-written objects left in storage tmp/', expected: 0, actual: leftovers },
      { name: 'email_analytics delivered = emails stamped delivered', expected: c.stamped_delivered, actual: c.delivered },
      { name: 'email_analytics opened = emails stamped opened', expected: c.stamped_opened, actual: c.opened },
      { name: 'email_analytics clicked = emails stamped clicked', expected: c.stamped_clicked, actual: c.clicked },
      { name: 'template total_opened = emails stamped opened', expected: c.stamped_opened, actual: c.total_opened },
      { name: 'template total_clicked = emails stamped clicked', expected: c.stamped_clicked, actual: c.total_clicked },
    ];
    return { kinds, invariants };
  } finally {
    await sql.end({ timeout: 5 });
  }
}
