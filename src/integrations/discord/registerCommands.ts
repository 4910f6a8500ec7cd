import { discordCommands } from './discordCommands.js';

/** Where to register: the application, optionally one guild (instant, for testing), and the API base. */
export interface RegisterOptions {
  applicationId: string;
  token: string;
  guildId?: string;
  /** Discord's API base (default https://discord.com/api/v10); a local fake in tests. */
  apiBase?: string;
  timeoutMs?: number;
}

/** Registers (overwrites) the slash commands of an application with Discord's API; returns how many it holds now. */
export async function registerCommands(o: RegisterOptions): Promise<number> {
  const base = (o.apiBase ?? 'https://discord.com/api/v10').replace(/\/+$/, '');
  if (!/^\d{5,25}$/.test(o.applicationId)) throw new Error(`--application-id must be the application's numeric id, not "${o.applicationId.slice(0, 30)}"`);
  if (o.guildId !== undefined && !/^\d{5,25}$/.test(o.guildId)) throw new Error(`--guild must be a numeric guild id, not "${o.guildId.slice(0, 30)}"`);
  const path = o.guildId ? `/applications/${o.applicationId}/guilds/${o.guildId}/commands` : `/applications/${o.applicationId}/commands`;
  const res = await fetch(base + path, {
    method: 'PUT',
    headers: { Authorization: `Bot ${o.token}`, 'Content-Type': 'application/json', 'User-Agent': 'DiscordBot (https://github.com/crkb, 0.1.0)' },
    // a guild's commands take no integration_types or contexts (global commands only)
    body: JSON.stringify(o.guildId ? discordCommands().map(({ integration_types: _i, contexts: _c, ...c }) => c) : discordCommands()),
    signal: AbortSignal.timeout(o.timeoutMs ?? 30_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`Discord answered ${res.status}: ${text.slice(0, 300)}`);
  const list = JSON.parse(text) as unknown;
  return Array.isArray(list) ? list.length : 0;
}
