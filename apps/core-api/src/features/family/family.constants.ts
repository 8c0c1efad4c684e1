// Closed lists of the family area. A value outside them is a 400 naming the field.

/** Relationship types (family_relationships.relationship_type, and a member's relationship to the group's creator). */
export const RELATIONSHIP_TYPES = [
  'parent',
  'mother',
  'father',
  'child',
  'son',
  'daughter',
  'spouse',
  'partner',
  'sibling',
  'brother',
  'sister',
  'grandparent',
  'grandmother',
  'grandfather',
  'grandchild',
  'grandson',
  'granddaughter',
  'great_grandparent',
  'great_grandchild',
  'aunt',
  'uncle',
  'niece',
  'nephew',
  'cousin',
  'parent_in_law',
  'child_in_law',
  'sibling_in_law',
  'step_parent',
  'step_child',
  'step_sibling',
  'godparent',
  'godchild',
  'friend',
  'other',
] as const;
export type RelationshipType = (typeof RELATIONSHIP_TYPES)[number];

/** Roles a member can be given after joining; owner is the creator's alone and never assigned. */
export const ASSIGNABLE_MEMBER_ROLES = ['family_contributor', 'family_viewer'] as const;

/** Member list filter. */
export const MEMBER_STATUS_FILTERS = ['active', 'removed', 'all'] as const;
