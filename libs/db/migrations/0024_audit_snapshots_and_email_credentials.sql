ALTER TABLE "admin_audit_log" DROP CONSTRAINT "admin_audit_log_actor_id_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "admin_audit_log" DROP CONSTRAINT "admin_audit_log_impersonated_user_id_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "admin_impersonations" DROP CONSTRAINT "admin_impersonations_admin_id_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "admin_impersonations" DROP CONSTRAINT "admin_impersonations_user_id_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "email_send_queue" ADD COLUMN "sensitive_variables" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "email_send_queue" ADD COLUMN "redacted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "admin_audit_log" ADD COLUMN "actor_email" text;--> statement-breakpoint
ALTER TABLE "admin_audit_log" ADD COLUMN "target_email" text;--> statement-breakpoint
ALTER TABLE "admin_audit_log" ADD COLUMN "impersonated_user_email" text;--> statement-breakpoint
ALTER TABLE "admin_impersonations" ADD COLUMN "admin_email" text;--> statement-breakpoint
ALTER TABLE "admin_impersonations" ADD COLUMN "user_email" text;--> statement-breakpoint
-- CONTRACTS §7: audit rows keep who acted on whom (id and email snapshot) after either account is deleted,
-- so the foreign keys above are gone and these BEFORE INSERT triggers take the snapshot from accounts
-- whenever a writer leaves it out (every writer of every service gets it without knowing about it).
CREATE OR REPLACE FUNCTION admin_audit_log_snapshots() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.actor_id IS NOT NULL AND NEW.actor_email IS NULL THEN
    SELECT email INTO NEW.actor_email FROM accounts WHERE id = NEW.actor_id;
  END IF;
  IF NEW.impersonated_user_id IS NOT NULL AND NEW.impersonated_user_email IS NULL THEN
    SELECT email INTO NEW.impersonated_user_email FROM accounts WHERE id = NEW.impersonated_user_id;
  END IF;
  IF NEW.target_type = 'account' AND NEW.target_email IS NULL
     AND NEW.target_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
    SELECT email INTO NEW.target_email FROM accounts WHERE id = NEW.target_id::uuid;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER admin_audit_log_snapshots BEFORE INSERT ON admin_audit_log FOR EACH ROW EXECUTE FUNCTION admin_audit_log_snapshots();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION admin_impersonations_snapshots() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.admin_email IS NULL THEN SELECT email INTO NEW.admin_email FROM accounts WHERE id = NEW.admin_id; END IF;
  IF NEW.user_email IS NULL THEN SELECT email INTO NEW.user_email FROM accounts WHERE id = NEW.user_id; END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER admin_impersonations_snapshots BEFORE INSERT ON admin_impersonations FOR EACH ROW EXECUTE FUNCTION admin_impersonations_snapshots();
--> statement-breakpoint
-- Snapshots of the rows written before this migration, while their accounts still exist.
UPDATE admin_audit_log l SET actor_email = a.email FROM accounts a WHERE a.id = l.actor_id AND l.actor_email IS NULL;
--> statement-breakpoint
UPDATE admin_audit_log l SET impersonated_user_email = a.email FROM accounts a WHERE a.id = l.impersonated_user_id AND l.impersonated_user_email IS NULL;
--> statement-breakpoint
UPDATE admin_audit_log l SET target_email = a.email FROM accounts a
 WHERE l.target_type = 'account' AND l.target_email IS NULL AND a.id::text = l.target_id;
--> statement-breakpoint
UPDATE admin_impersonations i SET admin_email = coalesce(i.admin_email, a.email) FROM accounts a WHERE a.id = i.admin_id;
--> statement-breakpoint
UPDATE admin_impersonations i SET user_email = coalesce(i.user_email, u.email) FROM accounts u WHERE u.id = i.user_id;
--> statement-breakpoint
-- Queue rows written before credentials were marked at enqueue (libs/email credentials.ts): the well-known
-- credential variables they hold are marked, and the rows already final keep no usable credential (each
-- value removed from subject, HTML and text; links before the bare tokens inside them).
UPDATE email_send_queue q
   SET sensitive_variables = array(
     SELECT k FROM jsonb_object_keys(q.template_variables) k
      WHERE k = ANY (ARRAY['verification_url', 'magic_link_url', 'invitation_url', 'invitation_token', 'redeem_url', 'gift_code', 'reset_url'])
      ORDER BY k)
 WHERE q.template_variables ?| ARRAY['verification_url', 'magic_link_url', 'invitation_url', 'invitation_token', 'redeem_url', 'gift_code', 'reset_url'];
--> statement-breakpoint
DO $$
DECLARE k text;
BEGIN
  FOREACH k IN ARRAY ARRAY['verification_url', 'magic_link_url', 'invitation_url', 'redeem_url', 'reset_url', 'invitation_token', 'gift_code'] LOOP
    UPDATE email_send_queue
       SET subject = replace(subject, template_variables ->> k, '[removed]'),
           html_content = replace(html_content, template_variables ->> k, '[removed]'),
           text_content = replace(text_content, template_variables ->> k, '[removed]'),
           template_variables = jsonb_set(template_variables, ARRAY[k], '"[removed]"'::jsonb),
           redacted_at = now()
     WHERE status IN ('sent', 'failed', 'cancelled')
       AND jsonb_typeof(template_variables -> k) = 'string'
       AND length(template_variables ->> k) >= 8;
  END LOOP;
END $$;
