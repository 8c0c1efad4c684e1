-- tools_search is a mirror kept by statement-level triggers (transition tables: one set-based write per
-- statement, so a bulk insert of a million rows costs one INSERT ... SELECT, not a million calls). While
-- tools_search_state.external is on, the touched ids also go to tools_search_changes (the outbox the
-- tools job runner pushes to an external engine).
INSERT INTO tools_search_state (singleton, external) VALUES (true, false) ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE FUNCTION tools_search_note_changes(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce((SELECT external FROM tools_search_state WHERE singleton), false) THEN
    INSERT INTO tools_search_changes (id) SELECT DISTINCT unnest(ids)
    ON CONFLICT (id) DO UPDATE SET changed_at = now();
  END IF;
END $$;
--> statement-breakpoint
-- Content tables; TG_ARGV[0] is the tool's route name.
CREATE FUNCTION tools_search_content_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO tools_search (id, tool, kind, title, share_code, prompt_id, session_id, user_id, is_public, share_type, share_expires_at,
                              expires_at, deleted_at, moderation_status, view_count, keywords, created_at, search_vector)
    SELECT n.id, TG_ARGV[0], 'content', n.title, n.share_code, NULL, n.session_id, n.user_id, n.is_public, n.share_type, n.share_expires_at,
           n.expires_at, n.deleted_at, 'approved', n.view_count, n.keywords, n.created_at, n.search_vector
    FROM new_rows n;
    PERFORM tools_search_note_changes(ARRAY(SELECT id FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    -- The old vector is kept when the text did not change (a view count), so its TOAST value is reused.
    UPDATE tools_search s
    SET title = n.title, share_code = n.share_code, session_id = n.session_id, user_id = n.user_id, is_public = n.is_public,
        share_type = n.share_type, share_expires_at = n.share_expires_at, expires_at = n.expires_at, deleted_at = n.deleted_at,
        view_count = n.view_count, keywords = n.keywords, created_at = n.created_at,
        search_vector = CASE WHEN o.search_vector = n.search_vector THEN s.search_vector ELSE n.search_vector END
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE s.id = n.id;
    PERFORM tools_search_note_changes(ARRAY(SELECT id FROM new_rows));
  ELSE
    DELETE FROM tools_search s USING old_rows o WHERE s.id = o.id;
    PERFORM tools_search_note_changes(ARRAY(SELECT id FROM old_rows));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION tools_search_response_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO tools_search (id, tool, kind, title, share_code, prompt_id, session_id, user_id, is_public, share_type, share_expires_at,
                              expires_at, deleted_at, moderation_status, view_count, keywords, created_at, search_vector)
    SELECT n.id, n.tool, 'responses', n.title, NULL, n.prompt_id, n.session_id, n.user_id, n.is_public, 'public', NULL,
           NULL, n.deleted_at, n.moderation_status, n.view_count, NULL, n.created_at, n.search_vector
    FROM new_rows n;
    PERFORM tools_search_note_changes(ARRAY(SELECT id FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE tools_search s
    SET tool = n.tool, title = n.title, prompt_id = n.prompt_id, session_id = n.session_id, user_id = n.user_id, is_public = n.is_public,
        deleted_at = n.deleted_at, moderation_status = n.moderation_status, view_count = n.view_count, created_at = n.created_at,
        search_vector = CASE WHEN o.search_vector = n.search_vector THEN s.search_vector ELSE n.search_vector END
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE s.id = n.id;
    PERFORM tools_search_note_changes(ARRAY(SELECT id FROM new_rows));
  ELSE
    DELETE FROM tools_search s USING old_rows o WHERE s.id = o.id;
    PERFORM tools_search_note_changes(ARRAY(SELECT id FROM old_rows));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DO $$
DECLARE
  pair text[];
BEGIN
  FOREACH pair SLICE 1 IN ARRAY ARRAY[
    ['tools_flashcards', 'flashcards'], ['tools_story_prompts', 'story-prompts'], ['tools_book_blurbs', 'book-blurb'],
    ['tools_romance_writing_prompts', 'romance-writing-prompts'], ['tools_flipbooks', 'flipbook'], ['tools_plot_twists', 'plot-twists'],
    ['tools_meet_cutes', 'meet-cute-generator'], ['tools_family_interview_questions', 'family-interview-questions'],
    ['tools_memory_prompts', 'memory-prompts'], ['tools_adventure_prompts', 'adventure-prompts'], ['tools_mystery_plots', 'mystery-plot-generator'],
    ['tools_horror_story_prompts', 'horror-story-prompts'], ['tools_comedy_prompts', 'comedy-prompts'], ['tools_first_lines', 'first-line-generator'],
    ['tools_character_names', 'character-name-generator'], ['tools_story_titles', 'story-title-generator']]
  LOOP
    EXECUTE format('INSERT INTO tools_search (id, tool, kind, title, share_code, session_id, user_id, is_public, share_type, share_expires_at, expires_at,
                      deleted_at, moderation_status, view_count, keywords, created_at, search_vector)
                    SELECT id, %L, ''content'', title, share_code, session_id, user_id, is_public, share_type, share_expires_at, expires_at,
                      deleted_at, ''approved'', view_count, keywords, created_at, search_vector FROM %I', pair[2], pair[1]);
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION tools_search_content_write(%L)',
                   pair[1] || '_search_ins', pair[1], pair[2]);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION tools_search_content_write(%L)',
                   pair[1] || '_search_upd', pair[1], pair[2]);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION tools_search_content_write(%L)',
                   pair[1] || '_search_del', pair[1], pair[2]);
  END LOOP;
END $$;
--> statement-breakpoint
INSERT INTO tools_search (id, tool, kind, title, prompt_id, session_id, user_id, is_public, share_type, deleted_at, moderation_status, view_count, created_at, search_vector)
SELECT id, tool, 'responses', title, prompt_id, session_id, user_id, is_public, 'public', deleted_at, moderation_status, view_count, created_at, search_vector
FROM tools_responses;
--> statement-breakpoint
CREATE TRIGGER tools_responses_search_ins AFTER INSERT ON tools_responses REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION tools_search_response_write();
--> statement-breakpoint
CREATE TRIGGER tools_responses_search_upd AFTER UPDATE ON tools_responses REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION tools_search_response_write();
--> statement-breakpoint
CREATE TRIGGER tools_responses_search_del AFTER DELETE ON tools_responses REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION tools_search_response_write();
