// Erasing a user's email data (spec 001 Limits): their email preferences are deleted and their queued
// emails anonymised (recipient replaced, variables emptied, HTML and text replaced), in one transaction.
// Rows stay, so delivery statistics remain true; nothing left in them identifies the person, and
// pending ones are cancelled.
import type { DbOrTx } from '@story/db';
import { createPreferencesRepository } from './preferences.repository';
import { createSendQueueRepository } from './send-queue.repository';

export const ERASED_CONTENT = '[erased at the request of the recipient]';

export async function eraseUserEmailData(db: DbOrTx, userId: string): Promise<{ anonymisedEmails: number }> {
  return db.transaction(async (tx) => {
    await createPreferencesRepository(tx).deletePreferences(userId);
    return { anonymisedEmails: await createSendQueueRepository(tx).anonymiseForUser(userId, ERASED_CONTENT) };
  });
}
