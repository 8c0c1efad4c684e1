// Genre vocabularies the prompt generators draw on: people, places, objects and forces that belong in a
// story of that genre. A free-text genre is matched by keyword; anything else gets the general set.
export interface GenreVocab {
  key: string;
  label: string;
  roles: readonly string[];
  places: readonly string[];
  objects: readonly string[];
  forces: readonly string[];
}

const VOCABS: readonly (GenreVocab & { match: RegExp })[] = [
  {
    key: 'fantasy',
    label: 'fantasy',
    match: /fantas|magic|dragon|myth|fairy|sword/i,
    roles: ['the exiled prince', 'the court mage', 'the hedge witch', "the dragon's keeper", 'the mercenary captain', 'the royal cartographer'],
    places: ['the drowned citadel', 'the border keep', 'the forbidden archive', 'the salt marshes', 'the crossroads inn', 'the sunken temple'],
    objects: ['the crown of thorns', 'a map drawn in blood', 'the last dragon egg', 'a sealed letter from the queen', 'the oathbound sword', 'a cracked scrying glass'],
    forces: ['the prophecy', 'the old gods', 'the Council of Nine', 'the Shadow Court', 'the guild of mages'],
  },
  {
    key: 'science-fiction',
    label: 'science fiction',
    match: /sci|space|cyber|future|robot|dystop|alien/i,
    roles: ["the ship's AI", "the colony's doctor", 'the first officer', 'the salvage pilot', 'the corporate liaison', 'the clone technician'],
    places: ['the generation ship', 'the orbital station', 'the terraforming dome', 'the derelict research lab', 'the undersea habitat', 'the quarantine deck'],
    objects: ['the black box recorder', 'a memory implant', 'the alien artifact', 'the quarantine logs', 'a corrupted star chart', 'the prototype engine'],
    forces: ['the Company', 'the signal', 'the colony council', 'the machine network', 'the Earth government'],
  },
  {
    key: 'mystery',
    label: 'mystery',
    match: /myster|crime|detect|thrill|noir|suspense|whodun/i,
    roles: ['the family lawyer', 'the grieving widow', 'the retired inspector', 'the housekeeper', "the victim's business partner", 'the night porter'],
    places: ['the country house', 'the harbour warehouse', 'the locked study', 'the late-night diner', 'the railway hotel', 'the auction house'],
    objects: ['the missing ledger', 'a torn photograph', 'the second will', 'a pawn ticket', 'a stopped pocket watch', 'the unsigned confession'],
    forces: ['the syndicate', 'the police commissioner', "the town's silence", 'the insurance company', 'the old scandal'],
  },
  {
    key: 'romance',
    label: 'romance',
    match: /roman|love|rom-?com/i,
    roles: ['the best friend', 'the ex-fiancé', 'the meddling grandmother', 'the new business rival', 'the wedding planner', 'the charming stranger'],
    places: ['the seaside inn', 'the family vineyard', 'the corner bookshop', 'the ski lodge', 'the summer festival', 'the rooftop garden'],
    objects: ['an unsent love letter', 'the engagement ring', 'a shared playlist', 'the old diary', 'a pair of concert tickets', 'the recipe box'],
    forces: ['the family feud', 'the merger', "the small town's gossip", 'the promotion', 'the long-held promise'],
  },
  {
    key: 'horror',
    label: 'horror',
    match: /horror|ghost|gothic|haunt|terror|creep|occult/i,
    roles: ['the kindly neighbour', 'the parish priest', 'the youngest child', 'the caretaker', 'the paranormal investigator', 'the previous tenant'],
    places: ['the boarded-up chapel', 'the basement', 'the lake house', 'the abandoned sanatorium', 'the root cellar', 'the motel at the end of the road'],
    objects: ['the music box', 'a photograph with one face too many', 'the cellar key', 'the family bible', 'a child’s drawing', 'the answering machine tape'],
    forces: ['the thing in the walls', 'the curse', 'the congregation', 'the hungry woods', 'the house itself'],
  },
  {
    key: 'historical',
    label: 'historical fiction',
    match: /histor|period|regency|victorian|medieval|war/i,
    roles: ["the lady's maid", 'the cavalry officer', "the printer's apprentice", 'the ambassador', 'the village doctor', 'the smuggler'],
    places: ['the manor house', 'the docks of London', 'the field hospital', 'the royal court', 'the coaching inn', 'the printing house'],
    objects: ['a coded letter', 'the family seal', 'the smuggled pamphlets', 'the deed to the estate', 'a locket with a stranger’s portrait', 'the regiment’s ledger'],
    forces: ['the Crown', 'the revolution', 'the old aristocracy', 'the Church', 'the war office'],
  },
];

const GENERAL: GenreVocab = {
  key: 'general',
  label: 'general fiction',
  roles: ["the narrator's sister", 'the mentor', 'the quiet neighbour', 'the estranged father', 'the best friend', 'the new colleague'],
  places: ['the family home', 'the hospital waiting room', 'the old school', 'the hometown', 'the holiday cottage', 'the empty shop'],
  objects: ['a letter never sent', 'the inheritance', 'an old photograph', 'the diary', 'a set of unfamiliar keys', 'the voicemail'],
  forces: ['the family', 'the past', 'the town', 'the company', 'an old promise'],
};

export function genreVocab(genre: string | undefined): GenreVocab {
  if (!genre) return GENERAL;
  const found = VOCABS.find((v) => v.match.test(genre));
  return found ?? { ...GENERAL, label: genre.toLowerCase() };
}

export const STORY_GENRES = ['fantasy', 'science-fiction', 'mystery', 'thriller', 'romance', 'horror', 'historical', 'literary', 'adventure', 'comedy', 'young-adult', 'dystopian'] as const;
