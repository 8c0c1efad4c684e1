// The reference collections of GET /api/reference-data/[collection]: fixed lists the apps offer in
// pickers. Relationship types are the family area's own closed list, so a value picked here is always
// accepted by the family routes; the others are written for this product (prompts for family stories).
import { RELATIONSHIP_TYPES } from '../family/family.constants';

export interface ReferenceItem {
  id: string;
  name: string;
  description?: string;
  category?: string;
}

const label = (slug: string) => slug.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
const items = (rows: readonly (readonly [string, string, string?])[]): ReferenceItem[] =>
  rows.map(([id, description, category]) => ({ id, name: label(id), description, ...(category ? { category } : {}) }));

const RELATIONSHIP_GROUPS: Record<string, string> = {
  parent: 'parents', mother: 'parents', father: 'parents', step_parent: 'parents', parent_in_law: 'in-laws',
  child: 'children', son: 'children', daughter: 'children', step_child: 'children', child_in_law: 'in-laws',
  spouse: 'partners', partner: 'partners',
  sibling: 'siblings', brother: 'siblings', sister: 'siblings', step_sibling: 'siblings', sibling_in_law: 'in-laws',
  grandparent: 'grandparents', grandmother: 'grandparents', grandfather: 'grandparents', great_grandparent: 'grandparents',
  grandchild: 'grandchildren', grandson: 'grandchildren', granddaughter: 'grandchildren', great_grandchild: 'grandchildren',
  aunt: 'extended family', uncle: 'extended family', niece: 'extended family', nephew: 'extended family', cousin: 'extended family',
  godparent: 'chosen family', godchild: 'chosen family', friend: 'chosen family', other: 'other',
};

const STORY_THEMES = items([
  ['childhood', 'Growing up: home, games, neighbours and first memories'],
  ['family_traditions', 'Holidays, recipes, rituals and sayings handed down'],
  ['love_and_marriage', 'Meeting, courting, weddings and partnership'],
  ['parenthood', 'Raising children and what it taught'],
  ['work_and_career', 'Jobs, trades, colleagues and lessons from work'],
  ['education', 'School days, teachers and learning later in life'],
  ['migration_and_places', 'Moves, homelands and the places that shaped the family'],
  ['war_and_service', 'Military service, wartime and its aftermath'],
  ['faith_and_values', 'Beliefs, community and what mattered most'],
  ['hardship_and_resilience', 'Difficult times and how the family came through'],
  ['friendship', 'Friends who became family'],
  ['hobbies_and_passions', 'Music, sport, crafts and the things loved for their own sake'],
  ['food_and_recipes', 'Kitchens, meals and the stories behind dishes'],
  ['historical_events', 'Living through moments the whole world remembers'],
  ['travel_and_adventure', 'Journeys, holidays and adventures'],
  ['advice_and_wisdom', 'What life has taught, for those who come next'],
]);

const LIFE_EVENTS = items([
  ['birth', 'Being born, or the birth of a child', 'beginnings'],
  ['first_day_of_school', 'Starting school', 'childhood'],
  ['graduation', 'Finishing school, college or training', 'education'],
  ['first_job', 'The first paid work', 'work'],
  ['military_service', 'Joining or serving in the forces', 'work'],
  ['moving_home', 'Moving to a new house or town', 'places'],
  ['emigration', 'Leaving one country for another', 'places'],
  ['engagement', 'Getting engaged', 'love'],
  ['wedding', 'Getting married', 'love'],
  ['anniversary', 'A memorable anniversary', 'love'],
  ['divorce', 'A marriage ending', 'love'],
  ['becoming_a_parent', 'The arrival of a child', 'family'],
  ['becoming_a_grandparent', 'The arrival of a grandchild', 'family'],
  ['career_milestone', 'A promotion, business opened or award', 'work'],
  ['retirement', 'Stopping work', 'work'],
  ['illness_and_recovery', 'Falling ill and getting better', 'health'],
  ['loss_of_a_loved_one', 'A death in the family or among friends', 'loss'],
  ['reunion', 'Finding or meeting family again', 'family'],
  ['milestone_birthday', 'A birthday that mattered', 'celebrations'],
  ['other', 'Anything else worth remembering', 'other'],
]);

const EMOTIONS = items([
  ['joy', 'Happiness and delight', 'positive'],
  ['love', 'Warmth and affection', 'positive'],
  ['pride', 'Satisfaction in something achieved', 'positive'],
  ['gratitude', 'Thankfulness', 'positive'],
  ['hope', 'Looking forward', 'positive'],
  ['amusement', 'Something funny', 'positive'],
  ['nostalgia', 'Fond longing for the past', 'reflective'],
  ['wonder', 'Awe and amazement', 'reflective'],
  ['peace', 'Calm and contentment', 'reflective'],
  ['surprise', 'The unexpected', 'neutral'],
  ['sadness', 'Sorrow and grief', 'difficult'],
  ['fear', 'Worry and fright', 'difficult'],
  ['anger', 'Frustration and injustice', 'difficult'],
  ['regret', 'Wishing it had gone otherwise', 'difficult'],
  ['loneliness', 'Feeling alone', 'difficult'],
  ['relief', 'A weight lifted', 'neutral'],
]);

export const REFERENCE_COLLECTIONS = {
  'relationship-types': RELATIONSHIP_TYPES.map((id) => ({ id, name: label(id), category: RELATIONSHIP_GROUPS[id] ?? 'other' })),
  'story-themes': STORY_THEMES,
  'life-events': LIFE_EVENTS,
  emotions: EMOTIONS,
} satisfies Record<string, ReferenceItem[]>;

export type ReferenceCollection = keyof typeof REFERENCE_COLLECTIONS;
export const REFERENCE_COLLECTION_NAMES = Object.keys(REFERENCE_COLLECTIONS) as ReferenceCollection[];
