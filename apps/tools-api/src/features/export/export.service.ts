// POST /api/{tool}/{id}/export: load what the caller may see, render the format, then count the export
// (export_count and an 'export' analytics event in one transaction; a failed render counts nothing).
import type postgres from 'postgres';
import type { ToolRoute } from '@story/db';
import type { ToolsCaller } from '../../shared/caller';
import { AppError } from '@story/http';
import { toolsError } from '../../shared/errors';
import { toolDefinition } from '../../tools';
import { toIso } from '../../shared/dates';
import { canSee } from '../../shared/visibility';
import { createExportRepository } from './export.repository';
import { findLiveContent, type ContentAccessRow } from '../../shared/content.repository';
import {
  EXPORT_FORMATS,
  FLASHCARD_ONLY_FORMATS,
  flattenContent,
  renderExport,
  type ExportDocument,
  type ExportFormat,
  type ExportOptions,
  type ExportResponse,
  type RenderedExport,
  UnprintableTextError,
} from './export.renderers';

/** Formats a tool offers: the study-app imports only for flashcard decks. */
export const formatsFor = (tool: ToolRoute): readonly ExportFormat[] => (tool === 'flashcards' ? EXPORT_FORMATS : EXPORT_FORMATS.filter((f) => !FLASHCARD_ONLY_FORMATS.includes(f)));

/** Responses included in an export: the public ones and the caller's own, oldest first (reading order). */
const MAX_EXPORTED_RESPONSES = 500;

/** The tool's own Field,Value rows; content that does not fit its definition (older rows) is flattened instead. */
export function toolRows(tool: ToolRoute, content: Record<string, unknown>): [string, string][] {
  try {
    const rows = toolDefinition(tool).exportRows(content as never);
    if (Array.isArray(rows) && rows.every((r) => Array.isArray(r) && r.length === 2)) return rows.map(([k, v]) => [String(k), String(v ?? '')]);
  } catch {
    // fall through to the generic rows
  }
  return flattenContent(content);
}

export function createExportService({ sql }: { sql: postgres.Sql }) {
  const repo = createExportRepository(sql);

  async function loadResponses(tool: ToolRoute, row: ContentAccessRow, caller: ToolsCaller): Promise<ExportResponse[]> {
    const rows = await repo.visibleResponses(tool, row.id, caller, MAX_EXPORTED_RESPONSES);
    return rows.map((r) => ({ id: r.id, title: r.title, content: r.content, wordCount: r.word_count, createdAt: toIso(r.created_at) }));
  }

  return {
    async export(tool: ToolRoute, idOrShareCode: string, format: string, options: ExportOptions, caller: ToolsCaller): Promise<RenderedExport> {
      const allowed = formatsFor(tool);
      if (!(allowed as readonly string[]).includes(format)) throw toolsError.invalidFormat(format, allowed);
      const row = await findLiveContent(sql, tool, idOrShareCode);
      if (!row || !canSee(row, caller)) throw toolsError.notFound();

      const responseCount = await repo.countResponses(tool, row.id);
      const doc: ExportDocument = {
        tool,
        id: row.id,
        shareCode: row.share_code,
        title: row.title ?? (typeof row.content['title'] === 'string' ? row.content['title'] : ''),
        createdAt: row.created_at.toISOString(),
        updatedAt: row.updated_at.toISOString(),
        content: row.content,
        rows: toolRows(tool, row.content),
        seo: { title: row.seo_title, description: row.seo_description, keywords: row.keywords ?? [] },
        ai: { model: row.ai_model, isAiGenerated: row.is_ai_generated },
        analytics: { viewCount: row.view_count, shareCount: row.share_count, responseCount },
        responses: options.includeResponses ? await loadResponses(tool, row, caller) : null,
      };

      let rendered: RenderedExport;
      try {
        rendered = await renderExport(format as ExportFormat, doc, options);
      } catch (err) {
        // Text no bundled font draws is named, and the formats that carry it anyway are offered.
        if (err instanceof UnprintableTextError) {
          throw new AppError('unprocessable', err.message, {
            code: 'INVALID_INPUT',
            field: 'format',
            details: { missingCharacters: err.missing.map(({ codePoint, name, char }) => ({ codePoint, name, char })), otherFormats: allowed.filter((f) => f !== 'pdf') },
          });
        }
        throw toolsError.exportFailed(err);
      }

      await repo.recordExport(
        tool,
        row.id,
        { format, template: options.template, theme: options.theme, pageSize: options.pageSize, includeResponses: options.includeResponses, bytes: rendered.body.length },
        { userId: caller.userId, sessionId: caller.sessionId || null, ipPrefix: caller.ipPrefix || null, userAgent: caller.userAgent },
      );
      return rendered;
    },
  };
}

export type ExportService = ReturnType<typeof createExportService>;
