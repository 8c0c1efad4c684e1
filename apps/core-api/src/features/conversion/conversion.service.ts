// POST /api/stories/convert ("Recording to story" 7, CONTRACTS §6): source loaded server-side, the
// readiness gate, a story written from the source, the faithfulness check (one rewrite, then refusal
// naming what was invented), and one transaction that inserts the story with its sources and provenance,
// links the recording, records the conversion and binds the story into a book.
import type { Sql } from 'postgres';
import { isUniqueViolation } from '@story/db';
import { AppError } from '@story/http';
import { providerForFeature, type LanguageModel } from '@story/providers';
import type { AccessPolicy } from '../access/access.policy';
import { appendChapters, lockBookForChange } from '../books/book-chapters';
import { createConversionRepository, type SourceType } from './conversion.repository';
import { assertNotConverted, loadSource, type ConversionSource } from './conversion.source';
import { checkFaithfulness } from './faithfulness';
import { buildProvenance, type ParagraphProvenance } from './provenance';
import { assessWithAi, countWords, floorReason, wordFloor, type Assessment, type Readiness } from './readiness';
import { judgeFaithfulness, writeStory, type WrittenStory } from './story-writer';

export interface ConvertInput {
  sourceType: SourceType;
  sourceId: string;
  title: string;
  bookId?: string;
  acceptPartial?: boolean;
}

export interface FaithfulnessResult {
  passed: boolean;
  score: number;
  unsupportedClaims: string[];
  checkedBy: string[];
  regenerated: boolean;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Refusal of the gate: 422 {error, readiness, wordCount} (CONTRACTS §6). */
const gateRefusal = (readiness: Readiness, wordCount: number, message: string, reasons?: string[]) =>
  new AppError('unprocessable', message, { extra: { readiness, wordCount, ...(reasons?.length ? { reasons } : {}) } });

export function createConversionService(deps: { sql: Sql; llm: LanguageModel; access: AccessPolicy }) {
  const { sql, llm, access } = deps;

  async function gate(source: ConversionSource, acceptPartial: boolean, userId: string): Promise<{ readiness: Readiness; wordCount: number; assessment: Assessment }> {
    const wordCount = countWords(source.text);
    let readiness = wordFloor(wordCount);
    if (readiness === 'rejected') throw gateRefusal('rejected', wordCount, floorReason('rejected', wordCount));
    if (readiness === 'partial' && !acceptPartial) throw gateRefusal('partial', wordCount, floorReason('partial', wordCount));
    const assessment = await assessWithAi(llm, source.text, userId);
    if (readiness === 'ready' && !assessment.ready) {
      readiness = 'partial';
      if (!acceptPartial) {
        throw gateRefusal('partial', wordCount, 'This memory may be too thin for a full story. You can add more to it, or create a shorter story from what is there.', assessment.reasons);
      }
    }
    return { readiness, wordCount, assessment };
  }

  /** Write, check, and rewrite once when the check finds invented details; refuse if they remain. */
  async function writeFaithfully(source: ConversionSource, title: string, userId: string, readiness: Readiness) {
    let written: WrittenStory = await writeStory(llm, { source: source.text, title, userId });
    let regenerated = false;
    for (;;) {
      const text = written.paragraphs.join('\n\n');
      const verdict = checkFaithfulness(text, source.text);
      const judge = await judgeFaithfulness(llm, { source: source.text, story: text, userId });
      const unsupported = [...new Set([...verdict.unsupportedClaims, ...(judge && !judge.faithful ? judge.unsupportedClaims : [])])];
      const faithfulness: FaithfulnessResult = {
        passed: unsupported.length === 0,
        score: verdict.score,
        unsupportedClaims: unsupported,
        checkedBy: ['claims', ...(judge ? [`judge:${judge.model}`] : [])],
        regenerated,
      };
      if (faithfulness.passed) return { written, faithfulness };
      // The offline writer only removes words: a second run would give the same text, so it is refused at once.
      if (regenerated || (await providerForFeature(llm, 'story-conversion')) === 'local') {
        throw new AppError('unprocessable', 'The story could not be written without details that are not in the source, so it was not created', {
          details: `Not in the source: ${unsupported.join(', ')}`,
          extra: { readiness, unsupportedClaims: unsupported },
        });
      }
      written = await writeStory(llm, { source: source.text, title, userId, avoid: unsupported });
      regenerated = true;
    }
  }

  async function insert(
    userId: string,
    input: ConvertInput,
    source: ConversionSource,
    result: { written: WrittenStory; faithfulness: FaithfulnessResult; readiness: Readiness; wordCount: number; assessment: Assessment; provenance: ParagraphProvenance[] },
  ) {
    const { written } = result;
    const content = written.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('');
    const storyWords = countWords(written.paragraphs.join(' '));
    const provenance = {
      sourceType: source.type,
      sourceIds: [source.id],
      model: written.model,
      generatedAt: new Date().toISOString(),
      faithfulness: result.faithfulness,
      paragraphs: result.provenance,
    };
    try {
      return await sql.begin(async (tx) => {
        // Under lock: two conversions of one source at once cannot both pass.
        await assertNotConverted(tx, source.type, source.id, true);
        const repo = createConversionRepository(tx);
        const storyId = await repo.insertStory({
          userId,
          campaignId: source.campaignId,
          title: input.title,
          content,
          metadata: { conversion: { readiness: result.readiness, sourceWordCount: result.wordCount } },
          aiEnhanced: written.aiEnhanced,
          sourceType: source.type,
          sourceId: source.id,
          wordCount: storyWords,
          provenance,
        });
        if (source.type === 'recording') await repo.linkRecording(source.id, storyId);
        await repo.insertConversion({
          storyId,
          userId,
          sourceType: source.type,
          sourceId: source.id,
          readiness: result.readiness,
          sourceWordCount: result.wordCount,
          assessment: result.assessment,
          faithfulness: result.faithfulness,
          aiModel: written.model,
        });
        // The book asked for, else the newest book of the source's campaign ("a source that already has a book passes it on").
        let bookId = input.bookId ?? null;
        if (!bookId && source.campaignId) {
          bookId = (await repo.newestCampaignBook(userId, source.campaignId)) ?? null;
        }
        if (bookId) {
          const book = await lockBookForChange(tx, access, userId, bookId);
          await appendChapters(tx, access, userId, book, [storyId], 'bookId');
        }
        return storyId;
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        const existing = await createConversionRepository(sql).conversionStoryId(source.type, source.id);
        throw new AppError('conflict', 'This source has already been turned into a story', { code: 'already_converted', extra: { storyId: existing } });
      }
      throw err;
    }
  }

  return {
    async convert(userId: string, input: ConvertInput) {
      const source = await loadSource(sql, userId, input.sourceType, input.sourceId);
      if (input.bookId) {
        // Checked before any model work: a bad bookId should not cost a generation.
        const bookOwner = await createConversionRepository(sql).bookOwner(input.bookId);
        if (!bookOwner) throw new AppError('not_found', 'Book not found');
        await access.require(userId, bookOwner, 'create_books', 'Book');
      }
      const { readiness, wordCount, assessment } = await gate(source, input.acceptPartial === true, userId);
      const { written, faithfulness } = await writeFaithfully(source, input.title, userId, readiness);
      const provenance = buildProvenance({ paragraphs: written.paragraphs, source: source.text, words: source.words, segments: source.segments });
      const storyId = await insert(userId, input, source, { written, faithfulness, readiness, wordCount, assessment, provenance });
      return { storyId, readiness: readiness as 'ready' | 'partial', faithfulness };
    },
  };
}

export type ConversionService = ReturnType<typeof createConversionService>;
