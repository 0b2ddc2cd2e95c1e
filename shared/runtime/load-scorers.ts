import type { ModelConfig } from '../config/service-config.js';
import { createDefaultHybridScorer } from '../scoring/hybrid/index.js';
import { createBm25Scorer } from '../scoring/lexical/index.js';
import { loadFolderScorer } from '../scoring/load-folder-scorer.js';
import type { Scorer } from '../core/scorer.js';

/** Loads every configured model once, in config order (the first is the default); hybrids reuse their parts. */
export async function loadScorers(models: readonly ModelConfig[], threads: number): Promise<Scorer[]> {
  const byId = new Map<string, Scorer>();
  await Promise.all(
    models.map(async (m) => {
      if (m.kind === 'folder') byId.set(m.id, await loadFolderScorer({ id: m.id, folder: m.folder, threads }));
      if (m.kind === 'lexical') byId.set(m.id, createBm25Scorer({ id: m.id }));
    }),
  );
  for (const m of models) {
    if (m.kind === 'hybrid') {
      byId.set(m.id, createDefaultHybridScorer({ id: m.id, model: byId.get(m.model) as Scorer, lexical: byId.get(m.lexical) as Scorer }));
    }
  }
  return models.map((m) => byId.get(m.id) as Scorer);
}
