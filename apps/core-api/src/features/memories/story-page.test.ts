// A story's standalone page carries lang and dir from its own text (spec 000 Archive 3: readable offline pages).
import { storyPage, type StoryPageInput } from './story-page';

const page = (content: string, extra: Partial<StoryPageInput> = {}) =>
  storyPage({ title: 'A story', content: `<p>${content}</p>`, responseText: null, prompt: null, typography: null, bookTitle: null, dateLine: '2026-05-01', storytellerName: 'Ann', ...extra });
const langDir = (html: string) => /<html lang="([^"]+)" dir="(ltr|rtl)">/.exec(html)?.slice(1);

describe('story page lang and dir', () => {
  it.each([
    ['وُلدت جدتي سلمى في حيفا عام ١٩٣١، وكانت تحب البحر والسمك والخبز الطازج كل صباح.', 'ar', 'rtl'],
    ['סבתא שרה נולדה בחיפה ואהבה את הים ואת הלחם הטרי בכל בוקר.', 'he', 'rtl'],
    ['奶奶王秀英出生在北京，她喜欢讲述小时候在胡同里玩耍的故事。', 'zh', 'ltr'],
    ['おばあちゃんは東京で生まれ、毎朝パンを焼いていました。', 'ja', 'ltr'],
    ['할머니는 부산에서 태어나셨고 매일 아침 빵을 구우셨습니다.', 'ko', 'ltr'],
    ['दादी का जन्म दिल्ली में हुआ था और वह हर सुबह रोटी बनाती थीं।', 'hi', 'ltr'],
    ['Γιαγιά γεννήθηκε στη Θεσσαλονίκη και έψηνε ψωμί κάθε πρωί.', 'el', 'ltr'],
    ['Babcia urodziła się w Łodzi w czasie śnieżycy i co rano piekła chleb dla całej rodziny.', 'pl', 'ltr'],
    ['Grandmother was born in the snow and baked bread for the whole family every single morning.', 'en', 'ltr'],
  ])('%s -> lang %s, dir %s', (text, lang, dir) => {
    expect(langDir(page(text))).toEqual([lang, dir]);
  });

  it("takes the book's language for short text in the book's script, and says 'und' when nothing tells", () => {
    expect(langDir(page('Tak.', { bookLanguage: 'pl' }))).toEqual(['pl', 'ltr']);
    expect(langDir(page('Yes.'))).toEqual(['und', 'ltr']);
    // An English book's Arabic story is still Arabic, right to left.
    expect(langDir(page('سلمى الحسيني', { bookLanguage: 'en' }))).toEqual(['ar', 'rtl']);
  });

  it('sets each paragraph in its own direction and names fonts for the script before the generic serif, loading nothing', () => {
    const html = page('سلمى الحسيني ولدت في حيفا', { bookLanguage: 'en' });
    expect(html).toContain('unicode-bidi: plaintext');
    expect(html).toMatch(/font-family: 'Times New Roman', Times, Georgia, 'Noto Naskh Arabic'[^;]*, serif;/);
    expect(html).not.toMatch(/url\(|@import|https?:\/\/|<link|src=/i);
    const sans = page('Hello there.', { typography: { fontFamily: 'Arial', fontSize: 11, lineHeight: 1.4 } });
    expect(sans).toMatch(/font-family: Helvetica, Arial, sans-serif, serif;/);
  });
});
