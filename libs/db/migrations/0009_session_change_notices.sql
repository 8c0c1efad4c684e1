-- Session checks are cached in each process (libs/auth sessions.ts); these triggers tell every process
-- at once when a cached answer changes. Payload: 's:<session id>' or 'u:<account id>'.
CREATE OR REPLACE FUNCTION notify_auth_session_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('auth_session_changes', 's:' || OLD.id::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER auth_sessions_notify_change
  AFTER UPDATE OF revoked_at, expires_at, user_id OR DELETE ON auth_sessions
  FOR EACH ROW EXECUTE FUNCTION notify_auth_session_change();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION notify_account_auth_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR NEW.role IS DISTINCT FROM OLD.role OR NEW.email IS DISTINCT FROM OLD.email THEN
    PERFORM pg_notify('auth_session_changes', 'u:' || OLD.id::text);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_notify_auth_change
  AFTER UPDATE OF role, email OR DELETE ON accounts
  FOR EACH ROW EXECUTE FUNCTION notify_account_auth_change();
