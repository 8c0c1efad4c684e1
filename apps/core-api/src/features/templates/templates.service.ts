// Book and cover templates (spec 000 Templates): read from book_templates / cover_templates, which the
// curated catalogue fills on first use (insert ... on conflict do nothing: rows an operator added or
// edited are left alone).
import type { Sql } from 'postgres';
import { BOOK_TEMPLATES, COVER_TEMPLATES, type CatalogueEntry, type RelationshipType } from './templates.catalogue';

export interface TemplateView {
  id: string;
  name: string;
  description: string;
  preview_url: string | null;
  category: string | null;
  relationship_type: string | null;
}

export interface TemplateWithSettings extends TemplateView {
  settings: Record<string, unknown>;
}

type Table = 'book_templates' | 'cover_templates';

export function createTemplatesService({ sql }: { sql: Sql }) {
  let seeded: Promise<void> | null = null;

  async function seed(table: Table, entries: readonly CatalogueEntry[]) {
    const rows = entries.map((e, i) => ({
      id: e.id,
      name: e.name,
      description: e.description,
      category: e.category,
      relationship_type: e.relationshipType,
      // The shared client sends jsonb parameters as given: text it is.
      settings: JSON.stringify(e.settings),
      sort_order: i,
    }));
    await sql`insert into ${sql(table)} ${sql(rows as never, 'id', 'name', 'description', 'category', 'relationship_type', 'settings', 'sort_order')} on conflict (id) do nothing`;
  }

  /** Seed once per process; a failure is retried on the next call rather than remembered. */
  function ensureCatalogue(): Promise<void> {
    seeded ??= Promise.all([seed('book_templates', BOOK_TEMPLATES), seed('cover_templates', COVER_TEMPLATES)]).then(
      () => undefined,
      (err: unknown) => {
        seeded = null;
        throw err;
      },
    );
    return seeded;
  }

  async function read(table: Table, relationshipType?: RelationshipType): Promise<TemplateWithSettings[]> {
    await ensureCatalogue();
    const rows = await sql<TemplateWithSettings[]>`
      select id, name, coalesce(description, '') as description, preview_url, category, relationship_type, settings
        from ${sql(table)}
       where is_active ${relationshipType ? sql`and relationship_type = ${relationshipType}` : sql``}
       order by sort_order, name`;
    return rows;
  }

  const strip = ({ settings: _settings, ...view }: TemplateWithSettings): TemplateView => view;

  return {
    ensureCatalogue,
    async bookTemplates(): Promise<TemplateView[]> {
      return (await read('book_templates')).map(strip);
    },
    async coverTemplates(): Promise<TemplateView[]> {
      return (await read('cover_templates')).map(strip);
    },
    async forRelationship(relationshipType: RelationshipType) {
      const [templates, covers] = await Promise.all([read('book_templates', relationshipType), read('cover_templates', relationshipType)]);
      return { relationshipType, templates: templates.map(strip), covers: covers.map(strip) };
    },
    /** Layout settings of one template, for the renderer (null when the id is unknown or inactive). */
    async settingsOf(table: Table, id: string | null): Promise<Record<string, unknown> | null> {
      if (!id) return null;
      await ensureCatalogue();
      const [row] = await sql<{ settings: Record<string, unknown> }[]>`select settings from ${sql(table)} where id = ${id}`;
      return row?.settings ?? null;
    },
    /** True when every given id is an active template of the table. */
    async exists(table: Table, id: string): Promise<boolean> {
      await ensureCatalogue();
      const [row] = await sql`select 1 from ${sql(table)} where id = ${id} and is_active`;
      return !!row;
    },
  };
}

export type TemplatesService = ReturnType<typeof createTemplatesService>;
