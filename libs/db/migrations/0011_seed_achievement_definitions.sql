-- The achievement catalogue (spec 000 Achievement definition: id slug, name, description, icon, points).
-- criteria.metric names a measure of real activity that core-api computes (features/achievements/
-- achievement-metrics.ts); target is the count that unlocks it. ON CONFLICT keeps edits made later.
INSERT INTO "achievement_definitions" ("id", "name", "description", "icon", "points", "category", "criteria", "sort_order")
VALUES
  ('first-story', 'First story', 'Write or convert your first story.', 'book-open', 10, 'stories', '{"metric": "stories_created", "target": 1}'::jsonb, 10),
  ('ten-stories', 'Storyteller', 'Collect ten stories.', 'books', 50, 'stories', '{"metric": "stories_created", "target": 10}'::jsonb, 20),
  ('fifty-stories', 'Keeper of tales', 'Collect fifty stories.', 'library', 200, 'stories', '{"metric": "stories_created", "target": 50}'::jsonb, 30),
  ('wordsmith', 'Wordsmith', 'Write ten thousand words across your stories.', 'feather', 100, 'stories', '{"metric": "words_written", "target": 10000}'::jsonb, 40),
  ('first-recording', 'First recording', 'Record your first memory.', 'microphone', 10, 'recordings', '{"metric": "recordings_created", "target": 1}'::jsonb, 50),
  ('twenty-five-recordings', 'Voice of the family', 'Make twenty-five recordings.', 'waveform', 100, 'recordings', '{"metric": "recordings_created", "target": 25}'::jsonb, 60),
  ('hour-of-memories', 'An hour of memories', 'Record sixty minutes in all.', 'clock', 75, 'recordings', '{"metric": "recording_minutes", "target": 60}'::jsonb, 70),
  ('first-book', 'First book', 'Start your first book.', 'book', 25, 'books', '{"metric": "books_created", "target": 1}'::jsonb, 80),
  ('family-founder', 'Family circle', 'Create or join a family group.', 'users', 15, 'family', '{"metric": "family_groups", "target": 1}'::jsonb, 90),
  ('family-gathering', 'Family gathering', 'Welcome five members into the family groups you created.', 'home', 50, 'family', '{"metric": "family_members", "target": 5}'::jsonb, 100)
ON CONFLICT ("id") DO NOTHING;
