// Conversations (AI interviewer), POST /api/transcribe and /api/tts/{provider} (issue 4 points 5 and 6).
import type { App } from '@story/http';
import type { CoreFeatureDeps } from './feature-deps';

export async function registerConversationsAndSpeech(app: App, deps: CoreFeatureDeps): Promise<void> {
  void app;
  void deps;
}
