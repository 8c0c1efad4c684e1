// Plain-text readings shared across services (see mentions.ts).
export { extractMentions, MONTH_NAMES, uniqueCaseless, type NamedMentions } from './mentions';
