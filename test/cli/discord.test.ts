import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ApplicationCommandType,
  ApplicationIntegrationType,
  InteractionContextType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  type RESTPutAPIApplicationCommandsJSONBody,
} from 'discord-api-types/v10';
import { run } from '../../src/cli/discord.js';
import { discordCommands } from '../../src/integrations/discord/discordCommands.js';

// A fake of Discord's API on a loopback port: records the registration request and echoes the commands.
let api: Server;
let base = '';
const seen: Array<{ method: string; url: string; auth: string; body: unknown }> = [];
before(async () => {
  api = createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, auth: req.headers.authorization ?? '', body: JSON.parse(data || 'null') });
      if (req.headers.authorization !== 'Bot good-token') {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"message": "401: Unauthorized", "code": 0}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(data);
    });
  });
  await new Promise<void>((done) => api.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(api.address() as AddressInfo).port}/api/v10`;
});
after(() => new Promise<void>((done) => api.close(() => done())));

async function capture(argv: string[]) {
  let out = '';
  let err = '';
  const ol = console.log;
  const oe = console.error;
  console.log = (...a: unknown[]) => void (out += a.join(' ') + '\n');
  console.error = (...a: unknown[]) => void (err += a.join(' ') + '\n');
  try {
    return { code: await run(argv), out, err };
  } finally {
    console.log = ol;
    console.error = oe;
  }
}

test('crkb discord commands prints the eight slash commands with their options', async () => {
  const r = await capture(['commands']);
  assert.equal(r.code, 0);
  const cmds = JSON.parse(r.out) as Array<{ name: string; options: Array<{ name: string; autocomplete?: boolean }> }>;
  assert.deepEqual(
    cmds.map((c) => c.name),
    ['cr', 'mtr', 'ipg', 'jar', 'define', 'search', 'diff', 'history'],
  );
  for (const c of cmds)
    assert.ok(
      c.options.some((o) => o.name === 'ephemeral'),
      c.name,
    );
  assert.ok(cmds.find((c) => c.name === 'cr')!.options.find((o) => o.name === 'number')!.autocomplete);
});

test('the commands are user-installable and usable in DMs: discord-api-types accepts them as a PUT body, with integration_types and contexts', () => {
  // typed with Discord's own API types: a field Discord does not take, or of another type, fails the build
  const body: RESTPutAPIApplicationCommandsJSONBody = discordCommands().map((c): RESTPostAPIChatInputApplicationCommandsJSONBody => ({
    ...c,
    type: ApplicationCommandType.ChatInput,
    options: c.options as RESTPostAPIChatInputApplicationCommandsJSONBody['options'],
    integration_types: c.integration_types as ApplicationIntegrationType[],
    contexts: c.contexts as InteractionContextType[],
  }));
  assert.equal(body.length, 8);
  for (const c of body) {
    assert.deepEqual(c.integration_types, [ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall], c.name);
    assert.deepEqual(c.contexts, [InteractionContextType.Guild, InteractionContextType.BotDM, InteractionContextType.PrivateChannel], c.name);
  }
});

test('crkb discord register PUTs them to the API with the bot token; a refusal is exit 1 with the reason', async () => {
  const r = await capture(['register', '--application-id', '123456789', '--token', 'good-token', '--api-base', base]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /registered 8 commands for application 123456789/);
  const req = seen.at(-1)!;
  assert.equal(req.method, 'PUT');
  assert.equal(req.url, '/api/v10/applications/123456789/commands');
  assert.equal((req.body as unknown[]).length, 8);
  const guild = await capture(['register', '--application-id', '123456789', '--token', 'good-token', '--guild', '987654321', '--api-base', base]);
  assert.equal(guild.code, 0);
  assert.equal(seen.at(-1)!.url, '/api/v10/applications/123456789/guilds/987654321/commands');
  // global commands say where they install and run; a guild's take neither field
  assert.ok((req.body as Array<{ contexts?: number[] }>).every((c) => c.contexts?.length === 3));
  assert.ok((seen.at(-1)!.body as Array<Record<string, unknown>>).every((c) => !('contexts' in c) && !('integration_types' in c)));
  const refused = await capture(['register', '--application-id', '123456789', '--token', 'bad', '--api-base', base]);
  assert.equal(refused.code, 1);
  assert.match(refused.err, /Discord answered 401/);
  await assert.rejects(capture(['register', '--token', 'x']), /--application-id is required/);
});
