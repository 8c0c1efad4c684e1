// The page shell of the admin application: one <main> per page, a skip link, the navigation of spec 001's
// route groups, the signed-in account with its sign-out form, and the two same-origin assets (no inline
// script or style: the CSP of dashboard.register.ts allows only 'self').
import { CSRF_FIELD } from './csrf';
import { html, type Html, type HtmlValue } from './html';
import type { DashboardUser } from './session';

export const BASE = '/dashboard';

/** The groups of spec 001 "Routes under /dashboard", in its order. */
export const NAV: readonly { path: string; label: string }[] = [
  { path: '', label: 'Overview' },
  { path: '/users', label: 'Users' },
  { path: '/feature-flags', label: 'Feature flags' },
  { path: '/ai-management', label: 'AI management' },
  { path: '/ai-providers', label: 'AI providers' },
  { path: '/email', label: 'Email templates' },
  { path: '/email/ab-test', label: 'A/B tests' },
  { path: '/analytics', label: 'Delivery and queue' },
  { path: '/content', label: 'Content' },
  { path: '/editor', label: 'Editor' },
  { path: '/conversation-testing', label: 'Conversation testing' },
  { path: '/conversations', label: 'Conversations' },
  { path: '/tools', label: 'Tools' },
  { path: '/billing', label: 'Billing' },
  { path: '/waitlist', label: 'Waitlist' },
  { path: '/voice-settings', label: 'Voice settings' },
  { path: '/user-support', label: 'User support' },
  { path: '/support', label: 'Support: audit log' },
  { path: '/resources', label: 'Resources' },
  { path: '/settings', label: 'Settings' },
  { path: '/system', label: 'System' },
];

export interface Assets {
  css: string;
  js: string;
}

export interface PageInput {
  title: string;
  /** The nav entry to mark as current (a NAV path). */
  section?: string;
  user: DashboardUser | null;
  csrfToken: string;
  assets: Assets;
  body: HtmlValue;
  /** A one-line notice at the top of <main> (a change that was saved, or what went wrong). */
  flash?: { kind: 'ok' | 'error'; text: string } | null;
}

function nav(section: string | undefined): Html {
  return html`<nav class="nav" id="nav" aria-label="Admin sections"><ul>${NAV.map(
    (n) => html`<li><a href="${BASE + n.path}"${n.path === section ? html` aria-current="page"` : ''}>${n.label}</a></li>`,
  )}</ul></nav>`;
}

export function page({ title, section, user, csrfToken, assets, body, flash }: PageInput): string {
  const header = user
    ? html`<header class="top">
  <a class="brand" href="${BASE}">Family Stories admin</a>
  <button type="button" class="menu-toggle" aria-controls="nav" aria-expanded="false" hidden>Menu</button>
  <div class="who"><span>${user.email}</span> <span class="role role-${user.role}">${user.role}</span>
    <form method="post" action="${BASE}/sign-out" class="inline"><input type="hidden" name="${CSRF_FIELD}" value="${csrfToken}"><button type="submit" class="link">Sign out</button></form>
  </div>
</header>`
    : html`<header class="top"><span class="brand">Family Stories admin</span></header>`;
  const notice = flash ? html`<p class="flash flash-${flash.kind}" role="${flash.kind === 'error' ? 'alert' : 'status'}">${flash.text}</p>` : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="csrf-token" content="${csrfToken}">
<title>${title} · Family Stories admin</title>
<link rel="stylesheet" href="${assets.css}">
<script src="${assets.js}" defer></script>
</head>
<body${user ? html` class="signed-in"` : ''}>
<a class="skip" href="#main">Skip to content</a>
${header}
<div class="frame">
${user ? nav(section) : ''}
<main id="main" tabindex="-1">
<h1>${title}</h1>
${notice}
${body}
</main>
</div>
</body>
</html>
`.value;
}

/** The hidden CSRF field every form carries. */
export const csrfField = (token: string): Html => html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;
