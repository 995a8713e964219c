/**
 * Who a Slack person is: users.info's answers (as Slack shapes them) turned into admin, guest
 * and external, remembered for a while; Enterprise Grid colleagues are not outsiders.
 */
import { describe, expect, it } from 'vitest';
import { createPeople } from '../../../src/slack/ingress/people.js';
import type { PeoplePolicy } from '../../../src/slack/ingress/people.js';
import { createRecordingLogger } from '../../helpers/test-logger.js';

const strict: PeoplePolicy = { adminUsers: [], allowGuests: false, allowExternalUsers: false };

function people(answers: Record<string, Record<string, unknown> | Error>, policy = strict) {
  const asked: string[] = [];
  let now = 0;
  const directory = createPeople({
    policy,
    usersInfo: async (_team, user) => {
      asked.push(user);
      const a = answers[user];
      if (a instanceof Error) throw a;
      return { ok: true, user: { id: user, team_id: 'T0000001', ...a } };
    },
    clock: { now: () => now },
    logger: createRecordingLogger(),
  });
  return { directory, asked, later: (ms: number) => (now += ms) };
}

describe('people', () => {
  it('workspace admins and owners are admins; guests and other organisations are refused', async () => {
    const { directory } = people({
      UADMIN01: { is_admin: true },
      UOWNER01: { is_owner: true },
      UGUEST01: { is_restricted: true },
      UEXT0001: { team_id: 'TEXTERNAL', is_admin: true },
      UPLAIN01: {},
    });
    const check = (user: string) => directory.check({ team: 'T0000001', user });
    expect(await check('UADMIN01')).toEqual({ ok: true, admin: true });
    expect(await check('UOWNER01')).toEqual({ ok: true, admin: true });
    expect(await check('UPLAIN01')).toEqual({ ok: true, admin: false });
    expect(await check('UGUEST01')).toEqual({ ok: false, denial: 'guest' });
    expect(await check('UEXT0001')).toEqual({ ok: false, denial: 'external' });
  });

  it('an allowed outsider is never an admin here', async () => {
    const { directory } = people(
      { UEXT0001: { team_id: 'TEXTERNAL', is_admin: true } },
      { ...strict, allowExternalUsers: true },
    );
    expect(await directory.check({ team: 'T0000001', user: 'UEXT0001' })).toEqual({
      ok: true,
      admin: false,
    });
  });

  it('a colleague from another workspace of the same Grid organisation is no outsider', async () => {
    const { directory } = people({
      UORG0001: { team_id: 'TORGWS002', enterprise_user: { enterprise_id: 'EORG00001' } },
      UEXT0001: { team_id: 'TEXTERNAL', enterprise_user: { enterprise_id: 'EOTHER001' } },
    });
    const where = { team: 'TORGWS001', enterprise: 'EORG00001', userTeam: 'TORGWS002' };
    expect(await directory.check({ ...where, user: 'UORG0001' })).toEqual({
      ok: true,
      admin: false,
    });
    expect(await directory.check({ ...where, user: 'UEXT0001' })).toEqual({
      ok: false,
      denial: 'external',
    });
  });

  it('asks once per person for a while; a failed answer refuses for now and is asked again', async () => {
    const answers: Record<string, Record<string, unknown> | Error> = {
      UALICE01: {},
      UBOB0001: new Error('ratelimited'),
    };
    const { directory, asked, later } = people(answers);
    await directory.check({ team: 'T0000001', user: 'UALICE01' });
    await directory.check({ team: 'T0000001', user: 'UALICE01' });
    expect(asked).toEqual(['UALICE01']);
    later(6 * 60_000);
    await directory.check({ team: 'T0000001', user: 'UALICE01' });
    expect(asked).toEqual(['UALICE01', 'UALICE01']);

    expect(await directory.check({ team: 'T0000001', user: 'UBOB0001' })).toEqual({
      ok: false,
      denial: 'unverified',
    });
    answers.UBOB0001 = {};
    expect(await directory.check({ team: 'T0000001', user: 'UBOB0001' })).toEqual({
      ok: true,
      admin: false,
    });
  });

  it('with named admins and guests allowed, Slack is not asked at all', async () => {
    const { directory, asked } = people(
      {},
      { ...strict, adminUsers: ['UADMIN01'], allowGuests: true },
    );
    // A person the operator named administers the whole relay, not only their workspace.
    expect(await directory.check({ team: 'T0000001', user: 'UADMIN01' })).toEqual({
      ok: true,
      admin: true,
      relayAdmin: true,
    });
    expect(await directory.check({ team: 'T0000001', user: 'UPLAIN01' })).toEqual({
      ok: true,
      admin: false,
    });
    expect(asked).toEqual([]);
  });
});
