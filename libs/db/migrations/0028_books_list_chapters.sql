-- GET /api/books answers each Book with the fields spec 000 lists, `chapters` included (CONTRACTS §8): the
-- stored list item (books.summary_json, written by this BEFORE trigger from the row) now carries the
-- chapter metadata the row already mirrors (books.chapters: id, chapter_number, title, word_count,
-- status; never chapter text), so the list stays a concatenation of stored texts.
CREATE OR REPLACE FUNCTION books_summary_json() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.summary_json := json_build_object(
    'id', NEW.id, 'user_id', NEW.user_id, 'title', NEW.title, 'subtitle', NEW.subtitle, 'author_name', NEW.author_name,
    'book_type', NEW.book_type, 'status', NEW.status, 'story_ids', NEW.story_ids, 'word_count', NEW.word_count,
    'chapters', NEW.chapters, 'chapter_count', cardinality(NEW.story_ids), 'campaign_id', NEW.campaign_id,
    'family_group_id', NEW.family_group_id, 'template_id', NEW.template_id, 'cover_template_id', NEW.cover_template_id,
    'interior_template_id', NEW.interior_template_id, 'trim_size', NEW.trim_size, 'keywords', NEW.keywords,
    'categories', NEW.categories, 'language', NEW.language, 'kdp_enrolled', NEW.kdp_enrolled, 'kdp_select', NEW.kdp_select,
    'created_at', to_char(NEW.created_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'updated_at', to_char(NEW.updated_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text;
  RETURN NEW;
END $$;
--> statement-breakpoint
-- With 40 chapters a list item is about 7 kB, over the TOAST threshold: stored uncompressed (EXTERNAL), so a
-- list read copies the texts instead of decompressing every item on every request.
ALTER TABLE books ALTER COLUMN summary_json SET STORAGE EXTERNAL;
--> statement-breakpoint
-- Existing rows: rewritten through the trigger.
UPDATE books SET summary_json = NULL;
