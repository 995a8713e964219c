/** The Teams app manifest: the bot's scopes, and the message extension the ingress reads. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SEND_TO_AGENT_COMMAND } from '../../src/teams/index.js';

const read = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../../manifests/teams/${name}`, import.meta.url)));
const manifest = JSON.parse(read('manifest.json').toString('utf8')) as {
  id: string;
  bots: { botId: string; scopes: string[] }[];
  composeExtensions: {
    botId: string;
    commands: { id: string; type: string; context: string[]; fetchTask: boolean }[];
  }[];
  icons: { color: string; outline: string };
};

describe('Teams app manifest', () => {
  it('one bot in 1:1 chats, teams and group chats, named by the app id', () => {
    expect(manifest.bots).toHaveLength(1);
    expect(manifest.bots[0]!.scopes.sort()).toEqual(['groupChat', 'personal', 'team']);
    expect(manifest.bots[0]!.botId).toBe('${{TEAMS_APP_ID}}');
  });

  it("the message extension's action on a message is the command the ingress reads", () => {
    const [extension] = manifest.composeExtensions;
    expect(extension!.botId).toBe(manifest.bots[0]!.botId);
    expect(extension!.commands).toEqual([
      expect.objectContaining({
        id: SEND_TO_AGENT_COMMAND,
        type: 'action',
        context: ['message'],
        fetchTask: false,
      }),
    ]);
  });

  it('its icons are PNGs of the sizes Teams asks for (192 and 32 pixels)', () => {
    for (const [name, size] of [
      [manifest.icons.color, 192],
      [manifest.icons.outline, 32],
    ] as const) {
      const png = read(name);
      expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size, size]);
    }
  });
});
