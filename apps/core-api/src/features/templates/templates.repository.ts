// The SQL of book_templates and cover_templates (CONVENTIONS 7): the catalogue seed and the reads.
import type { Sql } from 'postgres';
import type { CatalogueEntry, RelationshipType } from './templates.catalogue';

export type TemplateTable = 'book_templates' | 'cover_templates';

export interface TemplateRow {
  id: string;
  name: string;
  description: string;
  preview_url: string | null;
  category: string | null;
  relationship_type: string | null;
  settings: Record<string, unknown>;
}

export function createTemplatesRepository(sql: Sql) {
  return {
    /** insert ... on conflict do nothing: rows an operator added or edited are left alone. */
    async seed(table: TemplateTable, entries: readonly CatalogueEntry[]): Promise<void> {
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
    },

    /** Active templates in catalogue order, of one relationship type when given. */
    list: (table: TemplateTable, relationshipType?: RelationshipType) =>
      sql<TemplateRow[]>`
        select id, name, coalesce(description, '') as description, preview_url, category, relationship_type, settings
          from ${sql(table)}
         where is_active ${relationshipType ? sql`and relationship_type = ${relationshipType}` : sql``}
         order by sort_order, name`,

    async settingsOf(table: TemplateTable, id: string): Promise<Record<string, unknown> | null> {
      const [row] = await sql<{ settings: Record<string, unknown> }[]>`select settings from ${sql(table)} where id = ${id}`;
      return row?.settings ?? null;
    },

    async isActive(table: TemplateTable, id: string): Promise<boolean> {
      const [row] = await sql`select 1 from ${sql(table)} where id = ${id} and is_active`;
      return !!row;
    },
  };
}
