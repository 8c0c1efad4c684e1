// Recordings, uploads, transcription, speech, conversations and conversion (issue 4).
import type { App } from '@story/http';
import type { CoreFeatureDeps } from './feature-deps';

export async function registerRecordingsToStories(app: App, deps: CoreFeatureDeps): Promise<void> {
  void app;
  void deps;
}
