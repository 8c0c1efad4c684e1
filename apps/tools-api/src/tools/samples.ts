// Inputs for admin sample generation (and tests): the tools whose options have required fields get a
// realistic input; the rest run on their defaults.
import type { ToolRoute } from '@story/db';

export const SAMPLE_INPUTS: Partial<Record<ToolRoute, Record<string, unknown>>> = {
  flashcards: {
    deckName: 'Plant biology basics',
    text:
      'Photosynthesis is the process by which green plants turn light into chemical energy. Chlorophyll is the green pigment that absorbs light. ' +
      'The mitochondria are the organelles that release energy from food. Osmosis is the movement of water across a membrane. ' +
      'Transpiration is the loss of water vapour from the leaves of a plant. Stomata are the tiny pores on the underside of leaves.',
  },
  'book-blurb': { bookTitle: 'The Salt Road', genre: 'historical', protagonist: 'Mara Quill', tone: 'dramatic' },
  flipbook: {
    title: 'Grandma’s Soda Bread',
    text: 'Every Sunday, Grandma made soda bread before anyone else was awake.\n\nMix 450 g of flour with a teaspoon of salt and a teaspoon of bicarbonate of soda.\n\nPour in 400 ml of buttermilk and stir with a knife until it just comes together.\n\nShape a round, cut a deep cross on top "to let the fairies out", and bake for 40 minutes.',
    wordsPerPage: 40,
  },
  'plot-twists': { genre: 'mystery', storyType: 'novel', intensity: 'dramatic' },
};
