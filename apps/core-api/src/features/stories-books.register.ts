// Stories, books, templates and their PDF export (issue 5): registered by app.ts at the root scope;
// public routes here, authenticated ones in a scope with deps.authHook.
import type { App } from '@story/http';
import type { CoreFeatureDeps } from './feature-deps';

export async function registerStoriesAndBooks(app: App, deps: CoreFeatureDeps): Promise<void> {
  void app;
  void deps;
}
