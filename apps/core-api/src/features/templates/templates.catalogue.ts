// The curated catalogue of book (interior) and cover templates. The tables are reference data with
// slug ids (libs/db books.ts); this list is written into them on first use, so a fresh database, a
// test database and production all offer the same templates, and books can reference them by id.
// settings are what the PDF export reads: default typography and margins (inches) for interiors,
// colours and title font for covers.
import { CAMPAIGN_RELATIONSHIPS } from '@story/db';

export const RELATIONSHIP_TYPES = CAMPAIGN_RELATIONSHIPS;
export type RelationshipType = (typeof RELATIONSHIP_TYPES)[number];

export interface CatalogueEntry {
  id: string;
  name: string;
  description: string;
  category: string;
  relationshipType: RelationshipType | null;
  settings: Record<string, unknown>;
}

export const BOOK_TEMPLATES: readonly CatalogueEntry[] = [
  {
    id: 'classic-memoir',
    name: 'Classic Memoir',
    description: 'Serif text, generous margins and centred chapter titles: the look of a traditional memoir.',
    category: 'memoir',
    relationshipType: null,
    settings: { fontFamily: 'Times', fontSize: 11, lineHeight: 1.4, margins: { inner: 0.875, outer: 0.625, top: 0.75, bottom: 0.75 } },
  },
  {
    id: 'grandparent-legacy',
    name: "Grandparent's Legacy",
    description: 'Larger type and wide line spacing, easy for every generation to read aloud.',
    category: 'memoir',
    relationshipType: 'grandparent',
    settings: { fontFamily: 'Times', fontSize: 13, lineHeight: 1.6, margins: { inner: 0.875, outer: 0.75, top: 0.875, bottom: 0.875 } },
  },
  {
    id: 'parent-stories',
    name: 'Stories From Mum and Dad',
    description: 'A warm, modern serif layout for a parent’s life stories.',
    category: 'biography',
    relationshipType: 'parent',
    settings: { fontFamily: 'Georgia', fontSize: 11.5, lineHeight: 1.5, margins: { inner: 0.875, outer: 0.625, top: 0.75, bottom: 0.75 } },
  },
  {
    id: 'our-story',
    name: 'Our Story',
    description: 'A clean sans-serif layout for a couple’s shared memories.',
    category: 'couple',
    relationshipType: 'partner',
    settings: { fontFamily: 'Helvetica', fontSize: 10.5, lineHeight: 1.5, margins: { inner: 0.8, outer: 0.6, top: 0.75, bottom: 0.75 } },
  },
  {
    id: 'family-journal',
    name: 'Family Journal',
    description: 'Typewriter text in the spirit of letters and diaries kept over the years.',
    category: 'journal',
    relationshipType: 'other',
    settings: { fontFamily: 'Courier', fontSize: 10, lineHeight: 1.5, margins: { inner: 0.875, outer: 0.625, top: 0.75, bottom: 0.75 } },
  },
];

export const COVER_TEMPLATES: readonly CatalogueEntry[] = [
  {
    id: 'classic-cloth',
    name: 'Classic Cloth',
    description: 'Deep navy with cream lettering, like a cloth-bound hardback.',
    category: 'classic',
    relationshipType: null,
    settings: { background: '#1f2a44', textColor: '#f4ecd8', fontFamily: 'Times' },
  },
  {
    id: 'heritage-gold',
    name: 'Heritage Gold',
    description: 'Burgundy with gold lettering for a grandparent’s legacy.',
    category: 'classic',
    relationshipType: 'grandparent',
    settings: { background: '#5b1a1a', textColor: '#d8b25a', fontFamily: 'Times' },
  },
  {
    id: 'warm-linen',
    name: 'Warm Linen',
    description: 'Soft linen tones for a parent’s stories.',
    category: 'modern',
    relationshipType: 'parent',
    settings: { background: '#efe6d6', textColor: '#3b3024', fontFamily: 'Georgia' },
  },
  {
    id: 'two-hearts',
    name: 'Two Hearts',
    description: 'A clean rose layout for a couple.',
    category: 'modern',
    relationshipType: 'partner',
    settings: { background: '#f6dfe0', textColor: '#5a2a35', fontFamily: 'Helvetica' },
  },
  {
    id: 'minimal-white',
    name: 'Minimal White',
    description: 'White with black sans-serif type: lets the title speak.',
    category: 'minimal',
    relationshipType: 'other',
    settings: { background: '#ffffff', textColor: '#111111', fontFamily: 'Helvetica' },
  },
];
