ALTER TABLE "campaigns" ADD COLUMN "recording_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "conversation_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "list_item_json" text;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "summary_json" text;--> statement-breakpoint
-- GET /api/campaigns and GET /api/books answer stored JSON texts (list_item_json, summary_json), written by
-- these BEFORE triggers from the row being written, so a list read concatenates texts instead of building
-- every object (and, for campaigns, counting two tables) on every request. The counts are kept by the
-- statement triggers below, in the same transaction as the rows they count.
CREATE OR REPLACE FUNCTION campaigns_list_item_json() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.list_item_json := json_build_object(
    'id', NEW.id, 'title', NEW.title, 'description', coalesce(NEW.description, ''),
    'recordingCount', NEW.recording_count, 'conversationCount', NEW.conversation_count,
    'createdAt', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER campaigns_list_item_json
  BEFORE INSERT OR UPDATE OF id, title, description, recording_count, conversation_count, created_at, list_item_json ON campaigns
  FOR EACH ROW EXECUTE FUNCTION campaigns_list_item_json();
--> statement-breakpoint
-- Zone-less book timestamps hold UTC wall time (spec 000 Memories rule 2): formatted as they are.
CREATE OR REPLACE FUNCTION books_summary_json() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.summary_json := json_build_object(
    'id', NEW.id, 'user_id', NEW.user_id, 'title', NEW.title, 'subtitle', NEW.subtitle, 'author_name', NEW.author_name,
    'book_type', NEW.book_type, 'status', NEW.status, 'story_ids', NEW.story_ids, 'word_count', NEW.word_count,
    'chapter_count', cardinality(NEW.story_ids), 'campaign_id', NEW.campaign_id, 'family_group_id', NEW.family_group_id,
    'template_id', NEW.template_id, 'cover_template_id', NEW.cover_template_id, 'interior_template_id', NEW.interior_template_id,
    'trim_size', NEW.trim_size, 'keywords', NEW.keywords, 'categories', NEW.categories, 'language', NEW.language,
    'kdp_enrolled', NEW.kdp_enrolled, 'kdp_select', NEW.kdp_select,
    'created_at', to_char(NEW.created_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'updated_at', to_char(NEW.updated_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER books_summary_json BEFORE INSERT OR UPDATE ON books FOR EACH ROW EXECUTE FUNCTION books_summary_json();
--> statement-breakpoint
-- recordings and conversations added or removed, whole statements at a time (an account erasure removes
-- hundreds in one statement: one UPDATE per campaign, not per row). changed_rows is the statement's new
-- rows for an INSERT and its old rows for a DELETE.
CREATE OR REPLACE FUNCTION campaign_counts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  direction int := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  IF TG_TABLE_NAME = 'recordings' THEN
    UPDATE campaigns c SET recording_count = greatest(c.recording_count + direction * d.n, 0)
      FROM (SELECT campaign_id, count(*)::int AS n FROM changed_rows WHERE campaign_id IS NOT NULL GROUP BY campaign_id) d
     WHERE c.id = d.campaign_id;
  ELSE
    UPDATE campaigns c SET conversation_count = greatest(c.conversation_count + direction * d.n, 0)
      FROM (SELECT campaign_id, count(*)::int AS n FROM changed_rows WHERE campaign_id IS NOT NULL GROUP BY campaign_id) d
     WHERE c.id = d.campaign_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A row moved to another campaign (or out of one, as ON DELETE SET NULL does): one row at a time, and only
-- when campaign_id really changed, so the frequent status updates of recordings cost nothing here.
CREATE OR REPLACE FUNCTION campaign_counts_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'recordings' THEN
    UPDATE campaigns SET recording_count = greatest(recording_count - 1, 0) WHERE id = OLD.campaign_id;
    UPDATE campaigns SET recording_count = recording_count + 1 WHERE id = NEW.campaign_id;
  ELSE
    UPDATE campaigns SET conversation_count = greatest(conversation_count - 1, 0) WHERE id = OLD.campaign_id;
    UPDATE campaigns SET conversation_count = conversation_count + 1 WHERE id = NEW.campaign_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER recordings_campaign_count_added AFTER INSERT ON recordings
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION campaign_counts_changed();
--> statement-breakpoint
CREATE TRIGGER recordings_campaign_count_removed AFTER DELETE ON recordings
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION campaign_counts_changed();
--> statement-breakpoint
CREATE TRIGGER recordings_campaign_count_moved AFTER UPDATE OF campaign_id ON recordings
  FOR EACH ROW WHEN (OLD.campaign_id IS DISTINCT FROM NEW.campaign_id) EXECUTE FUNCTION campaign_counts_moved();
--> statement-breakpoint
CREATE TRIGGER conversations_campaign_count_added AFTER INSERT ON conversations
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION campaign_counts_changed();
--> statement-breakpoint
CREATE TRIGGER conversations_campaign_count_removed AFTER DELETE ON conversations
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION campaign_counts_changed();
--> statement-breakpoint
CREATE TRIGGER conversations_campaign_count_moved AFTER UPDATE OF campaign_id ON conversations
  FOR EACH ROW WHEN (OLD.campaign_id IS DISTINCT FROM NEW.campaign_id) EXECUTE FUNCTION campaign_counts_moved();
--> statement-breakpoint
-- Existing rows: the counts as the list used to compute them (this fires the JSON trigger too), and every book's summary.
UPDATE campaigns c SET
  recording_count = (SELECT count(*)::int FROM recordings r WHERE r.campaign_id = c.id),
  conversation_count = (SELECT count(*)::int FROM conversations v WHERE v.campaign_id = c.id);
--> statement-breakpoint
UPDATE books SET summary_json = NULL;
