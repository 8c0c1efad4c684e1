-- The waitlist_verify system template (spec 001 Admin application reference: waitlist): the link that
-- confirms a waitlist signup's address. Transactional, so it is sent whatever the settings say; no
-- per-address cap, since a repeated signup replaces the token and the waitlist route is rate-limited.
INSERT INTO "email_templates" ("name", "display_name", "description", "category", "subject_template", "html_template", "text_template", "available_variables", "default_variables", "required_variables", "trigger_events", "send_delay_hours", "max_sends_per_user", "is_active", "is_system")
VALUES (
  'waitlist_verify',
  'Confirm your waitlist place',
  'Sent at waitlist signup: the link that confirms the address (single use, 7 days).',
  'transactional',
  $s$Please confirm your place on the Family Stories waitlist$s$,
  $h$<div style="font-family:Georgia,'Times New Roman',serif;max-width:560px;margin:0 auto;padding:32px 24px;color:#2d2a26;background:#fffdf9;">
  <p style="font-size:16px;line-height:1.6;margin:0 0 16px;">Hi {{name}},</p>
  <p style="font-size:16px;line-height:1.6;margin:0 0 24px;">Thank you for joining the Family Stories waitlist. Please confirm this address so we can tell you when your place is ready.</p>
  <p style="margin:0 0 24px;"><a href="{{verification_url}}" style="display:inline-block;background:#8a5a44;color:#ffffff;text-decoration:none;padding:12px 22px;border-radius:6px;font-family:Arial,sans-serif;font-size:15px;">Confirm my place</a></p>
  <p style="font-size:14px;line-height:1.6;color:#6b645c;margin:0 0 16px;">The link works once and expires in 7 days. If you did not sign up, you can ignore this email.</p>
  <p style="font-size:14px;line-height:1.6;color:#6b645c;margin:0;">The Family Stories team</p>
</div>$h$,
  $t$Hi {{name}},

Thank you for joining the Family Stories waitlist. Please confirm this address so we can tell you when your place is ready:
{{verification_url}}

The link works once and expires in 7 days. If you did not sign up, you can ignore this email.

The Family Stories team$t$,
  '{"name": "The signup''s name", "verification_url": "Link that confirms the waitlist address (single use, 7 days)"}'::jsonb,
  '{"name": "there"}'::jsonb,
  '{verification_url}'::text[],
  '{waitlist_signup}'::text[],
  0, NULL, true, true
);
