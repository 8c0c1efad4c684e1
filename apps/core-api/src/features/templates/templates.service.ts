// Book and cover templates (spec 000 Templates): read from book_templates / cover_templates, which the
// curated catalogue fills on first use (rows an operator added or edited are left alone).
import type { Sql } from 'postgres';
import { BOOK_TEMPLATES, COVER_TEMPLATES, type CatalogueEntry, type RelationshipType } from './templates.catalogue';
import { createTemplatesRepository, type TemplateRow, type TemplateTable } from './templates.repository';

/** A template as listed: everything but its layout settings (those go to the renderer only). */
export type TemplateView = Omit<TemplateRow, 'settings'>;
export type TemplateWithSettings = TemplateRow;
type Table = TemplateTable;

export function createTemplatesService({ sql }: { sql: Sql }) {
  const repo = createTemplatesRepository(sql);
  let seeded: Promise<void> | null = null;
  const seed = (table: Table, entries: readonly CatalogueEntry[]) => repo.seed(table, entries);

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
    return repo.list(table, relationshipType);
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
      return repo.settingsOf(table, id);
    },
    /** True when every given id is an active template of the table. */
    async exists(table: Table, id: string): Promise<boolean> {
      await ensureCatalogue();
      return repo.isActive(table, id);
    },
  };
}

export type TemplatesService = ReturnType<typeof createTemplatesService>;
