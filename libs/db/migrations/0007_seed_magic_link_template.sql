-- The magic_link system template (CONTRACTS §10), seeded like 0004: transactional, so consent settings
-- never hold it back; no per-user cap, since requests are limited by core-api (5 per hour per address).
INSERT INTO "email_templates" ("name", "display_name", "description", "category", "subject_template", "html_template", "text_template", "available_variables", "default_variables", "required_variables", "trigger_events", "send_delay_hours", "max_sends_per_user", "is_active", "is_system")
VALUES (
  'magic_link',
  'Sign-in link',
  'Sent on request: a link that signs the account in without a password (single use, valid 15 minutes).',
  'transactional',
  $s$Your sign-in link$s$,
  $h$<div style="font-family:Georgia,'Times New Roman',serif;max-width:560px;margin:0 auto;padding:32px 24px;color:#2d2a26;background:#fffdf9;">
  <p style="font-size:16px;line-height:1.6;margin:0 0 16px;">Hi {{user_name}},</p>
  <p style="font-size:16px;line-height:1.6;margin:0 0 24px;">Use the button below to sign in to your family stories.</p>
  <p style="margin:0 0 24px;"><a href="{{magic_link_url}}" style="display:inline-block;background:#8a5a44;color:#ffffff;text-decoration:none;padding:12px 22px;border-radius:6px;font-family:Arial,sans-serif;font-size:15px;">Sign me in</a></p>
  <p style="font-size:14px;line-height:1.6;color:#6b645c;margin:0 0 16px;">The link works once and expires in 15 minutes. If you did not ask to sign in, you can ignore this email.</p>
  <p style="font-size:14px;line-height:1.6;color:#6b645c;margin:0;">The Family Stories team</p>
</div>$h$,
  $t$Hi {{user_name}},

Use this link to sign in to your family stories:
{{magic_link_url}}

The link works once and expires in 15 minutes. If you did not ask to sign in, you can ignore this email.

The Family Stories team$t$,
  '{"user_name": "The recipient''s first name", "magic_link_url": "Link that signs the account in (single use, 15 minutes)"}'::jsonb,
  '{"user_name": "there"}'::jsonb,
  '{magic_link_url}'::text[],
  '{magic_link}'::text[],
  0, NULL, true, true
)
ON CONFLICT ("name") DO NOTHING;
--> statement-breakpoint
INSERT INTO "email_template_versions" ("template_id", "version", "name", "display_name", "description", "category", "subject_template", "html_template", "text_template", "available_variables", "default_variables", "required_variables", "trigger_events", "send_delay_hours", "max_sends_per_user", "is_active", "change_note")
SELECT "id", 1, "name", "display_name", "description", "category", "subject_template", "html_template", "text_template", "available_variables", "default_variables", "required_variables", "trigger_events", "send_delay_hours", "max_sends_per_user", "is_active", 'Seeded system template'
FROM "email_templates"
WHERE "name" = 'magic_link' AND "current_version" = 1
ON CONFLICT ("template_id", "version") DO NOTHING;
