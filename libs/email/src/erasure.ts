// Erasing a user's email data (spec 001 Limits): their email preferences are deleted and their queued
// emails anonymised (recipient replaced, variables emptied, HTML and text replaced), in one transaction.
// Rows stay, so delivery statistics remain true; nothing left in them identifies the person, and
// pending ones are cancelled.
import { eq, sql } from 'drizzle-orm';
import { emailSendQueue, userEmailPreferences, type DbOrTx } from '@story/db';

export const ERASED_CONTENT = '[erased at the request of the recipient]';

export async function eraseUserEmailData(db: DbOrTx, userId: string): Promise<{ anonymisedEmails: number }> {
  return db.transaction(async (tx) => {
    await tx.delete(userEmailPreferences).where(eq(userEmailPreferences.userId, userId));
    const rows = await tx
      .update(emailSendQueue)
      .set({
        // A per-row address on the reserved .invalid domain: never deliverable, never the person's.
        toEmail: `erased+${userId.slice(0, 8)}@erased.invalid`,
        subject: ERASED_CONTENT,
        templateVariables: {},
        htmlContent: ERASED_CONTENT,
        textContent: ERASED_CONTENT,
        // What has not been sent yet never will be: its recipient and content are gone.
        status: sql`case when ${emailSendQueue.status} = 'pending' then 'cancelled' else ${emailSendQueue.status} end`,
      })
      .where(eq(emailSendQueue.userId, userId))
      .returning({ id: emailSendQueue.id });
    return { anonymisedEmails: rows.length };
  });
}
