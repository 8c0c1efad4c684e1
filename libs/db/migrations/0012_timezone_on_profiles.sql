ALTER TABLE "profiles" ALTER COLUMN "timezone" SET DEFAULT 'America/New_York';--> statement-breakpoint
-- The time zone has one home from here on (profiles.timezone). Nothing could set either column before this
-- migration, so a profile still at the old default takes the zone its settings row held.
UPDATE "profiles" AS p SET "timezone" = us."timezone" FROM "user_settings" AS us WHERE us."user_id" = p."id" AND p."timezone" = 'UTC';--> statement-breakpoint
ALTER TABLE "user_settings" DROP COLUMN "timezone";
