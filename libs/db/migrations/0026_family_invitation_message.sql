-- The family_invitation template shows the inviter's personal message (the `message` variable the
-- invitation already queues), escaped like every HTML variable, inside an optional block
-- ({{#message}}...{{/message}}, libs/email render.ts) so an invitation without one shows no empty frame.
-- Only a template still at its seeded version 1 is changed: an admin's own edits are kept as they are.
UPDATE "email_templates" SET
  "html_template" = $h$<div style="font-family:Georgia,'Times New Roman',serif;max-width:560px;margin:0 auto;padding:32px 24px;color:#2d2a26;background:#fffdf9;">
  <p style="font-size:16px;line-height:1.6;margin:0 0 16px;">Hello{{recipient_greeting}},</p>
  <p style="font-size:16px;line-height:1.6;margin:0 0 16px;"><strong>{{inviter_name}}</strong> would love for you to join <strong>{{family_name}}</strong> — a private place where your family gathers its stories, memories and voices.</p>
  {{#message}}<blockquote style="font-size:16px;line-height:1.6;font-style:italic;margin:0 0 24px;padding:12px 16px;border-left:3px solid #c9a48f;background:#f7f0ea;white-space:pre-line;">{{message}}</blockquote>
  {{/message}}<p style="margin:0 0 24px;"><a href="{{invitation_url}}" style="display:inline-block;background:#8a5a44;color:#ffffff;text-decoration:none;padding:12px 22px;border-radius:6px;font-family:Arial,sans-serif;font-size:15px;">Accept the invitation</a></p>
  <p style="font-size:14px;line-height:1.6;color:#6b645c;margin:0;">If you weren't expecting this, you can simply ignore this email.</p>
</div>$h$,
  "text_template" = $t$Hello{{recipient_greeting}},

{{inviter_name}} would love for you to join {{family_name}} — a private place where your family gathers its stories, memories and voices.

{{#message}}{{inviter_name}} wrote:
"{{message}}"

{{/message}}Accept the invitation: {{invitation_url}}

If you weren't expecting this, you can simply ignore this email.$t$,
  "available_variables" = "available_variables" || '{"message": "Optional personal message from the inviter, shown quoted when given"}'::jsonb,
  "current_version" = 2,
  "updated_at" = now()
WHERE "name" = 'family_invitation' AND "is_system" AND "current_version" = 1;
--> statement-breakpoint
INSERT INTO "email_template_versions" ("template_id", "version", "name", "display_name", "description", "category", "subject_template", "html_template", "text_template", "available_variables", "default_variables", "required_variables", "trigger_events", "send_delay_hours", "max_sends_per_user", "is_active", "change_note")
SELECT "id", 2, "name", "display_name", "description", "category", "subject_template", "html_template", "text_template", "available_variables", "default_variables", "required_variables", "trigger_events", "send_delay_hours", "max_sends_per_user", "is_active", 'Shows the inviter''s personal message'
FROM "email_templates"
WHERE "name" = 'family_invitation' AND "is_system" AND "current_version" = 2
ON CONFLICT ("template_id", "version") DO NOTHING;
