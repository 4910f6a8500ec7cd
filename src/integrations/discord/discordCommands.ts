import { POLICY_FAMILIES, type PolicyFamilyName } from '../../core/families.js';
/** Discord's option types used here. */
const STRING = 3;
const BOOLEAN = 5;

/** An application command option as Discord's API takes it. */
interface DiscordOption {
  type: number;
  name: string;
  description: string;
  required?: boolean;
  autocomplete?: boolean;
  max_length?: number;
}

/** A slash command as Discord's API takes it. */
export interface DiscordCommand {
  name: string;
  description: string;
  type: 1;
  options: DiscordOption[];
  /** Where the app may be installed for the command: 0 a server (guild install), 1 a user (user install). */
  integration_types?: number[];
  /** Where it may be used: 0 a server, 1 a DM with the bot, 2 group DMs and other DMs (user installs). */
  contexts?: number[];
}

/** Discord's ApplicationIntegrationType: GUILD_INSTALL, USER_INSTALL. */
const INSTALLS = [0, 1];
/** Discord's InteractionContextType: GUILD, BOT_DM, PRIVATE_CHANNEL. */
const CONTEXTS = [0, 1, 2];

const edition: DiscordOption = {
  type: STRING,
  name: 'edition',
  description: 'Edition: a date, a set code (AFR) or latest (default)',
  autocomplete: true,
  max_length: 64,
};
const ephemeral: DiscordOption = { type: BOOLEAN, name: 'ephemeral', description: 'Only you see the answer' };

/**
 * The slash commands of the crkb bot: /cr, /mtr, /ipg, /jar, /define, /search, /diff and /history, each installable to a
 * server or to a user, and usable in servers, in a DM with the bot and in other DMs (global commands:
 * a guild's commands take neither field).
 */
export function discordCommands(): DiscordCommand[] {
  return COMMANDS.map((c) => ({ ...c, integration_types: INSTALLS, contexts: CONTEXTS }));
}

// each tournament document's command, as Discord lists it (at most 100 characters)
const POLICY_COMMANDS: Record<PolicyFamilyName, string> = {
  mtr: 'A section of the Magic Tournament Rules (4.2, tournament shortcuts)',
  ipg: 'A section of the Infraction Procedure Guide (2.1, missed trigger)',
  jar: 'Judging at Regular REL: an issue or heading (missed trigger, 1.1: numbers are crkb’s positions)',
};

const COMMANDS: DiscordCommand[] = [
  {
    name: 'cr',
    type: 1,
    description: 'A Comprehensive Rules rule with its subrules (702.19b, 601.2a-h, 702.19b ex 2, trample)',
    options: [
      { type: STRING, name: 'number', description: 'Rule number, range or keyword', required: true, autocomplete: true, max_length: 100 },
      edition,
      ephemeral,
    ],
  },
  ...POLICY_FAMILIES.map((name): DiscordCommand => ({
    name,
    type: 1,
    description: POLICY_COMMANDS[name],
    options: [
      { type: STRING, name: 'query', description: 'Section number or words of its title', required: true, max_length: 100 },
      { ...edition, description: 'Edition: a date or latest (default)', autocomplete: false },
      ephemeral,
    ],
  })),
  {
    name: 'define',
    type: 1,
    description: 'A glossary term and the rules it points to (dies, token, sba, etb)',
    options: [{ type: STRING, name: 'term', description: 'The term', required: true, autocomplete: true, max_length: 100 }, edition, ephemeral],
  },
  {
    name: 'search',
    type: 1,
    description: 'Full-text search of the Comprehensive Rules',
    options: [{ type: STRING, name: 'query', description: 'Words to find', required: true, max_length: 200 }, edition, ephemeral],
  },
  {
    name: 'diff',
    type: 1,
    description: 'What changed between two editions',
    options: [
      { ...edition, name: 'from', description: 'The earlier edition (date or set code)', required: true },
      { ...edition, name: 'to', description: 'The later edition (date, set code or latest)', required: true },
      { type: STRING, name: 'section', description: 'Only this part, section or rule (702, 702.19)', max_length: 20 },
      ephemeral,
    ],
  },
  {
    name: 'history',
    type: 1,
    description: "A rule's history across editions and renumbering",
    options: [{ type: STRING, name: 'number', description: 'Rule number', required: true, autocomplete: true, max_length: 20 }, edition, ephemeral],
  },
];
