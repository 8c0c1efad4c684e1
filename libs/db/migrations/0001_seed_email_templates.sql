-- Default system templates of spec 001. ON CONFLICT (name) DO NOTHING (email_templates_name_key) keeps an
-- admin's later edits of these rows when migrations run again on a database that already has them.
INSERT INTO "email_templates" ("name", "display_name", "description", "category", "subject_template", "html_template", "text_template", "available_variables", "default_variables", "required_variables", "trigger_events", "send_delay_hours", "max_sends_per_user", "is_active", "is_system")
VALUES (
  'welcome',
  'Welcome',
  'Sent right after signup: a warm hello and one clear first step.',
  'onboarding',
  $s$Welcome, {{user_name}} — your family's stories start here$s$,
  $h$<div style="font-family:Georgia,'Times New Roman',serif;max-width:560px;margin:0 auto;padding:32px 24px;color:#2d2a26;background:#fffdf9;">
  <h1 style="font-size:24px;font-weight:normal;margin:0 0 16px;">Welcome, {{user_name}}!</h1>
  <p style="font-size:16px;line-height:1.6;margin:0 0 16px;">We're so glad you're here. Every family has stories worth keeping — the funny ones, the hard ones, the ones only you remember. We'll help you save them, one conversation at a time.</p>
  <p style="font-size:16px;line-height:1.6;margin:0 0 24px;">The easiest way to begin is to tell us about one small memory. Five minutes is plenty.</p>
  <p style="margin:0 0 24px;"><a href="{{onboarding_url}}" style="display:inline-block;background:#8a5a44;color:#ffffff;text-decoration:none;padding:12px 22px;border-radius:6px;font-family:Arial,sans-serif;font-size:15px;">Share your first memory</a></p>
  <p style="font-size:14px;line-height:1.6;color:#6b645c;margin:0;">With warmth,<br>The Family Stories team</p>
</div>$h$,
  $t$Welcome, {{user_name}}!

We're so glad you're here. Every family has stories worth keeping — the funny ones, the hard ones, the ones only you remember. We'll help you save them, one conversation at a time.

The easiest way to begin is to tell us about one small memory. Five minutes is plenty:
{{onboarding_url}}

With warmth,
The Family Stories team$t$,
  '{"user_name": "The recipient''s first name", "onboarding_url": "Link to the first step of onboarding"}'::jsonb,
  '{"user_name": "there"}'::jsonb,
  '{}'::text[],
  '{user_signup}'::text[],
  0, 1, true, true
), (
  'story_reminder',
  'Story reminder',
  'A gentle nudge to come back to a story that has not been touched for a while.',
  'reminder',
  $s$"{{story_title}}" is waiting for you$s$,
  $h$<div style="font-family:Georgia,'Times New Roman',serif;max-width:560px;margin:0 auto;padding:32px 24px;color:#2d2a26;background:#fffdf9;">
  <p style="font-size:16px;line-height:1.6;margin:0 0 16px;">Hi {{user_name}},</p>
  <p style="font-size:16px;line-height:1.6;margin:0 0 16px;">Your story <strong>{{story_title}}</strong> is right where you left it. Even a few more sentences today will mean a lot to the people who read it one day.</p>
  <p style="margin:0 0 24px;"><a href="{{story_url}}" style="display:inline-block;background:#8a5a44;color:#ffffff;text-decoration:none;padding:12px 22px;border-radius:6px;font-family:Arial,sans-serif;font-size:15px;">Pick up where you left off</a></p>
  <p style="font-size:14px;line-height:1.6;color:#6b645c;margin:0;">No rush — your words will keep.<br>The Family Stories team</p>
</div>$h$,
  $t$Hi {{user_name}},

Your story "{{story_title}}" is right where you left it. Even a few more sentences today will mean a lot to the people who read it one day.

Pick up where you left off: {{story_url}}

No rush — your words will keep.
The Family Stories team$t$,
  '{"user_name": "The recipient''s first name", "story_title": "Title of the unfinished story", "story_url": "Link that opens the story in the editor"}'::jsonb,
  '{"user_name": "there", "story_title": "your story"}'::jsonb,
  '{}'::text[],
  '{story_reminder}'::text[],
  0, NULL, true, true
), (
  'family_invitation',
  'Family invitation',
  'Invites someone to join a family and share stories; sent when a member asks for it.',
  'transactional',
  $s${{inviter_name}} invited you to join {{family_name}} on Family Stories$s$,
  $h$<div style="font-family:Georgia,'Times New Roman',serif;max-width:560px;margin:0 auto;padding:32px 24px;color:#2d2a26;background:#fffdf9;">
  <p style="font-size:16px;line-height:1.6;margin:0 0 16px;">Hello{{recipient_greeting}},</p>
  <p style="font-size:16px;line-height:1.6;margin:0 0 16px;"><strong>{{inviter_name}}</strong> would love for you to join <strong>{{family_name}}</strong> — a private place where your family gathers its stories, memories and voices.</p>
  <p style="margin:0 0 24px;"><a href="{{invitation_url}}" style="display:inline-block;background:#8a5a44;color:#ffffff;text-decoration:none;padding:12px 22px;border-radius:6px;font-family:Arial,sans-serif;font-size:15px;">Accept the invitation</a></p>
  <p style="font-size:14px;line-height:1.6;color:#6b645c;margin:0;">If you weren't expecting this, you can simply ignore this email.</p>
</div>$h$,
  $t$Hello{{recipient_greeting}},

{{inviter_name}} would love for you to join {{family_name}} — a private place where your family gathers its stories, memories and voices.

Accept the invitation: {{invitation_url}}

If you weren't expecting this, you can simply ignore this email.$t$,
  '{"inviter_name": "Name of the family member who sent the invitation", "family_name": "Name of the family", "invitation_url": "Link that accepts the invitation", "recipient_greeting": "Optional, e.g. \" Grandma\" (with a leading space)"}'::jsonb,
  '{"recipient_greeting": ""}'::jsonb,
  '{inviter_name,family_name,invitation_url}'::text[],
  '{family_invitation}'::text[],
  0, NULL, true, true
), (
  'gift_notification',
  'Gift notification',
  'Tells the recipient of a gifted subscription who sent it and how to redeem it.',
  'transactional',
  $s${{sender_name}} sent you a gift: Family Stories$s$,
  $h$<div style="font-family:Georgia,'Times New Roman',serif;max-width:560px;margin:0 auto;padding:32px 24px;color:#2d2a26;background:#fffdf9;">
  <p style="font-size:16px;line-height:1.6;margin:0 0 16px;">Dear {{recipient_name}},</p>
  <p style="font-size:16px;line-height:1.6;margin:0 0 16px;"><strong>{{sender_name}}</strong> has given you Family Stories — a simple way to record your memories so they can be kept and shared for generations.</p>
  <blockquote style="font-size:16px;line-height:1.6;font-style:italic;margin:0 0 24px;padding:12px 16px;border-left:3px solid #c9a48f;background:#f7f0ea;">{{gift_message}}</blockquote>
  <p style="margin:0 0 24px;"><a href="{{redeem_url}}" style="display:inline-block;background:#8a5a44;color:#ffffff;text-decoration:none;padding:12px 22px;border-radius:6px;font-family:Arial,sans-serif;font-size:15px;">Open your gift</a></p>
  <p style="font-size:14px;line-height:1.6;color:#6b645c;margin:0;">We can't wait to hear your stories.<br>The Family Stories team</p>
</div>$h$,
  $t$Dear {{recipient_name}},

{{sender_name}} has given you Family Stories — a simple way to record your memories so they can be kept and shared for generations.

"{{gift_message}}"

Open your gift: {{redeem_url}}

We can't wait to hear your stories.
The Family Stories team$t$,
  '{"recipient_name": "Name of the person receiving the gift", "sender_name": "Name of the person who bought the gift", "gift_message": "Personal message from the sender", "redeem_url": "Link that redeems the gift"}'::jsonb,
  '{"recipient_name": "friend", "sender_name": "Someone who loves you", "gift_message": "I would love to hear your stories."}'::jsonb,
  '{redeem_url}'::text[],
  '{gift_purchased}'::text[],
  0, NULL, true, true
)
ON CONFLICT ("name") DO NOTHING;
--> statement-breakpoint
-- Version 1 snapshots, so the history of a seeded template starts with its seeded content.
INSERT INTO "email_template_versions" ("template_id", "version", "name", "display_name", "description", "category", "subject_template", "html_template", "text_template", "available_variables", "default_variables", "required_variables", "trigger_events", "send_delay_hours", "max_sends_per_user", "is_active", "change_note")
SELECT "id", 1, "name", "display_name", "description", "category", "subject_template", "html_template", "text_template", "available_variables", "default_variables", "required_variables", "trigger_events", "send_delay_hours", "max_sends_per_user", "is_active", 'Seeded system template'
FROM "email_templates"
WHERE "name" IN ('welcome', 'story_reminder', 'family_invitation', 'gift_notification') AND "current_version" = 1
ON CONFLICT ("template_id", "version") DO NOTHING;
