import type { EditionWebhooks } from '../integrations/webhooks/editionWebhooks.js';
import { UsageError } from './UsageError.js';

/** The webhooks told of a new edition ($CRKB_WEBHOOKS, signed with $CRKB_WEBHOOK_SECRET), or null when none are set. */
export async function webhooksFromEnv(dbFile: string, command: string, log: (line: string) => void): Promise<EditionWebhooks | null> {
  const spec = process.env.CRKB_WEBHOOKS ?? '';
  if (spec.trim() === '') return null;
  const { editionWebhooks, parseWebhooks } = await import('../integrations/webhooks/editionWebhooks.js');
  const secret = process.env.CRKB_WEBHOOK_SECRET || null;
  let hooks;
  try {
    hooks = parseWebhooks(spec, secret);
  } catch (e) {
    throw new UsageError((e as Error).message, command);
  }
  return editionWebhooks({ hooks, secret, stateFile: process.env.CRKB_WEBHOOK_STATE || `${dbFile}.webhooks.json`, log });
}
