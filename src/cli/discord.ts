import { discordCommands } from '../integrations/discord/discordCommands.js';
import { registerCommands } from '../integrations/discord/registerCommands.js';
import { parseOptions } from './options.js';
import { UsageError } from './UsageError.js';

export const usage = `Usage: crkb discord commands
       crkb discord register --application-id ID [--token T] [--guild ID] [--api-base URL]

commands  prints the slash command definitions (/cr, /define, /search, /diff, /history) as JSON.
register  registers them with Discord for the application (--guild: one server only, instantly).
          The bot token comes from --token or $CRKB_DISCORD_TOKEN; --api-base defaults to
          https://discord.com/api/v10.

Serve the interactions endpoint with CRKB_DISCORD_PUBLIC_KEY=<hex> crkb serve, and set
<public URL>/discord/interactions as the Interactions Endpoint URL in the developer portal.`;

/** `crkb discord`: print or register the slash commands. */
export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'commands') {
    parseOptions(rest, {}, usage, false);
    console.log(JSON.stringify(discordCommands(), null, 2));
    return 0;
  }
  if (sub !== 'register') throw new UsageError(sub === undefined ? 'give a subcommand: commands or register' : `unknown subcommand "${sub}"`, usage);
  const { values } = parseOptions(
    rest,
    { 'application-id': { type: 'string' }, token: { type: 'string' }, guild: { type: 'string' }, 'api-base': { type: 'string' } },
    usage,
    false,
  );
  const applicationId = values['application-id'];
  const token = values.token ?? process.env.CRKB_DISCORD_TOKEN;
  if (!applicationId) throw new UsageError('--application-id is required', usage);
  if (!token) throw new UsageError('give the bot token with --token or $CRKB_DISCORD_TOKEN', usage);
  try {
    const n = await registerCommands({
      applicationId,
      token,
      ...(values.guild ? { guildId: values.guild } : {}),
      ...(values['api-base'] ? { apiBase: values['api-base'] } : {}),
    });
    console.log(`crkb discord: registered ${n} commands for application ${applicationId}${values.guild ? ` in guild ${values.guild}` : ''}`);
    return 0;
  } catch (e) {
    console.error(`crkb discord: ${(e as Error).message}`);
    return 1;
  }
}
