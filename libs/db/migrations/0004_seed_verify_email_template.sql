-- The verify_email system template (CONTRACTS §7), seeded like 0001: transactional, so consent settings
-- never hold it back; no per-user cap, since resends are limited by core-api (3 per hour).
INSERT INTO "email_templates" ("name", "display_name", "description", "category", "subject_template", "html_template", "text_template", "available_variables", "default_variables", "required_variables", "trigger_events", "send_delay_hours", "max_sends_per_user", "is_active", "is_system")
VALUES (
  'verify_email',
  'Verify your email',
  'Sent at signup and on request: the link that confirms the account''s email address (valid 24 hours).',
  'transactional',
  $s$Please confirm your email address$s$,
  $h$<div style="font-family:Georgia,'Times New Roman',serif;max-width:560px;margin:0 auto;padding:32px 24px;color:#2d2a26;background:#fffdf9;">
  <p style="font-size:16px;line-height:1.6;margin:0 0 16px;">Hi {{user_name}},</p>
  <p style="font-size:16px;line-height:1.6;margin:0 0 24px;">Please confirm that this is your email address, so we can keep your account and your family's stories safe.</p>
  <p style="margin:0 0 24px;"><a href="{{verification_url}}" style="display:inline-block;background:#8a5a44;color:#ffffff;text-decoration:none;padding:12px 22px;border-radius:6px;font-family:Arial,sans-serif;font-size:15px;">Confirm my email</a></p>
  <p style="font-size:14px;line-height:1.6;color:#6b645c;margin:0 0 16px;">The link works once and expires in 24 hours. If you did not create an account, you can ignore this email.</p>
  <p style="font-size:14px;line-height:1.6;color:#6b645c;margin:0;">The Family Stories team</p>
</div>$h$,
  $t$Hi {{user_name}},

Please confirm that this is your email address, so we can keep your account and your family's stories safe:
{{verification_url}}

The link works once and expires in 24 hours. If you did not create an account, you can ignore this email.

The Family Stories team$t$,
  '{"user_name": "The recipient''s first name", "verification_url": "Link that confirms the email address (single use, 24 hours)"}'::jsonb,
  '{"user_name": "there"}'::jsonb,
  '{verification_url}'::text[],
  '{email_verification}'::text[],
  0, NULL, true, true
)
ON CONFLICT ("name") DO NOTHING;
--> statement-breakpoint
INSERT INTO "email_template_versions" ("template_id", "version", "name", "display_name", "description", "category", "subject_template", "html_template", "text_template", "available_variables", "default_variables", "required_variables", "trigger_events", "send_delay_hours", "max_sends_per_user", "is_active", "change_note")
SELECT "id", 1, "name", "display_name", "description", "category", "subject_template", "html_template", "text_template", "available_variables", "default_variables", "required_variables", "trigger_events", "send_delay_hours", "max_sends_per_user", "is_active", 'Seeded system template'
FROM "email_templates"
WHERE "name" = 'verify_email' AND "current_version" = 1
ON CONFLICT ("template_id", "version") DO NOTHING;
