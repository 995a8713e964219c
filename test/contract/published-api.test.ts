/**
 * The client against the emulator where the published description and our earlier reading of
 * it differ: the current create path, the metadata filter, child runs that inherit our stamp,
 * off-spec list items, a capacity 429 that still queues the run. One manual clock for both.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgentClient, type AgentClient, type OffSpecRunItem } from '../../src/agent/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

const TIMINGS = { queuedMs: 100, pendingMs: 100, claimedMs: 100, runMs: 1000, slowRunMs: 10_000 };

let emu: Emulator;
let client: AgentClient;
let now: number;
let sleeps: number[];
let skipped: OffSpecRunItem[];
const clock = { now: () => now };

function makeClient(maxRetries = 2): AgentClient {
  return createAgentClient({
    baseUrl: emu.baseUrl,
    apiKey: emu.apiKey,
    maxRetries,
    timeoutMs: 5000,
    clock,
    random: () => 0,
    sleep: async (ms) => void sleeps.push(ms),
    onOffSpecRunItem: (item) => void skipped.push(item),
  });
}

beforeEach(async () => {
  now = Date.parse('2025-03-01T12:00:00.000Z');
  sleeps = [];
  skipped = [];
  emu = await startEmulator({ clock, tickMs: 60_000, timings: TIMINGS });
  client = makeClient();
});
afterEach(() => emu.close());

describe('create', () => {
  it('uses the current path POST /agent/runs, never the deprecated POST /agent/run', async () => {
    await client.createRun({ prompt: 'p' });
    expect(emu.requests.get('POST /agent/runs')).toBe(1);
    expect(emu.requests.get('POST /agent/run')).toBe(0);
  });
});

/** A create whose answer is lost after the service made the run (the reconcile path). */
function loseNextCreateAnswer(): void {
  emu.faults.dropNext(1, { route: 'POST /agent/runs', afterProcessing: true });
}

describe('reconcile never adopts a child run', () => {
  it('asks the service to filter by the stamp and picks the run without a parent', async () => {
    loseNextCreateAnswer();
    const creating = client.createRun({ prompt: 'parent', metadata: { relay_request: 'req-p' } });
    // The service made the run, and the run spawned children before we looked: every child
    // inherits the stamp and is newer than its parent.
    const created = await creating.catch(() => undefined);
    const parentId = created?.run_id ?? emu.runs.all()[0]!.run_id;
    expect(emu.runs.count()).toBe(1);
    now += 10;
    const child = emu.createRunDirect({ prompt: 'child', parent_run_id: parentId });
    now += 10;
    emu.createRunDirect({ prompt: 'grandchild', parent_run_id: child.run_id });
    expect(emu.runs.get(child.run_id)?.metadata).toMatchObject({ relay_request: 'req-p' });
    expect(created?.run_id).toBe(parentId);

    const found = await client.findRunByRequest('req-p', new Date(now - 60_000).toISOString());
    expect(found?.run_id).toBe(parentId);
  });

  it('a create reconciled after its children exist returns the parent, not the newest child', async () => {
    // The parent and a child both carry the stamp; the child is the newest match.
    const parent = emu.createRunDirect({ prompt: 'parent', metadata: { relay_request: 'req-c' } });
    now += 10;
    emu.createRunDirect({ prompt: 'child', parent_run_id: parent.run_id });
    now += 10;
    const found = await client.findRunByRequest('req-c', new Date(now - 60_000).toISOString());
    expect(found?.run_id).toBe(parent.run_id);
    const listed = emu.requests.get('GET /agent/runs');
    expect(listed).toBe(1);
  });

  it('falls back to scanning when the service answers 403 feature_not_available', async () => {
    emu.faults.metadataFilterUnavailable(true);
    const parent = emu.createRunDirect({ prompt: 'parent', metadata: { relay_request: 'req-s' } });
    now += 10;
    emu.createRunDirect({ prompt: 'child', parent_run_id: parent.run_id });
    now += 10;
    const found = await client.findRunByRequest('req-s', new Date(now - 60_000).toISOString());
    expect(found?.run_id).toBe(parent.run_id);
    // One refused filtered list, one scan; the next lookup goes straight to the scan.
    expect(emu.requests.get('GET /agent/runs')).toBe(2);
    await client.findRunByRequest('req-s', new Date(now - 60_000).toISOString());
    expect(emu.requests.get('GET /agent/runs')).toBe(3);
  });

  it('when only a child is listed, it follows the child up to the stamped root', async () => {
    const parent = emu.createRunDirect(
      { prompt: 'parent', metadata: { relay_request: 'req-u' } },
      { createdAt: now - 3_600_000 },
    );
    emu.createRunDirect({ prompt: 'child', parent_run_id: parent.run_id });
    now += 10;
    const found = await client.findRunByRequest('req-u', new Date(now - 60_000).toISOString());
    expect(found?.run_id).toBe(parent.run_id);
  });
});

describe('one odd run does not stop a listing', () => {
  it('an item with null for a string is left out, a missing optional field is fine; reported once', async () => {
    const odd = emu.createRunDirect({ prompt: 'odd one' });
    const bare = emu.createRunDirect({ prompt: 'bare one' });
    const fine = emu.createRunDirect({ prompt: 'fine one' });
    emu.faults.offSpec(odd.run_id, { title: null });
    emu.faults.offSpec(bare.run_id, { session_link: undefined, creator: undefined });
    for (let i = 0; i < 2; i++) {
      const page = await client.listRuns({ limit: 10 });
      expect(page.runs.map((r) => r.run_id).sort()).toEqual([bare.run_id, fine.run_id].sort());
    }
    expect(skipped).toEqual([
      {
        runId: odd.run_id,
        skipped: true,
        droppedFields: [],
        issues: [{ path: 'title', message: expect.any(String) }],
      },
    ]);
  });

  it('an optional field of the wrong type is dropped and the run kept', async () => {
    const odd = emu.createRunDirect({ prompt: 'odd artifacts' });
    emu.faults.offSpec(odd.run_id, { artifacts: 'none', status_message: { message: null } });
    const page = await client.listRuns({ limit: 10 });
    expect(page.runs.map((r) => r.run_id)).toEqual([odd.run_id]);
    expect(page.runs[0]!.artifacts).toBeUndefined();
    expect(skipped).toEqual([
      expect.objectContaining({
        runId: odd.run_id,
        skipped: false,
        droppedFields: ['artifacts', 'status_message'],
      }),
    ]);
  });
});

describe('a capacity 429 on create', () => {
  it('queued the run anyway: it is found by stamp and not sent again', async () => {
    emu.faults.failNext(1, 429, { route: 'POST /agent/runs', processed: true });
    const res = await client.withResponse.createRun({
      prompt: 'at capacity',
      metadata: { relay_request: 'req-429' },
    });
    expect(res.reconciled).toBe(true);
    expect(emu.runs.count()).toBe(1);
    expect(res.data.run_id).toBe(emu.runs.all()[0]!.run_id);
    expect(emu.requests.get('POST /agent/runs')).toBe(1);
    expect(sleeps).toEqual([1000]);
  });

  it('did not queue it: sent again after the wait and the look', async () => {
    emu.faults.failNext(1, 429, { route: 'POST /agent/runs' });
    const res = await client.createRun({ prompt: 'refused', metadata: { relay_request: 'r2' } });
    expect(emu.runs.count()).toBe(1);
    expect(res.run_id).toBe(emu.runs.all()[0]!.run_id);
    expect(emu.requests.get('POST /agent/runs')).toBe(2);
    expect(emu.requests.get('GET /agent/runs')).toBe(1);
  });
});

describe('the emulator follows the published description', () => {
  it('applies environment, skill, artifact-type and ancestor filters; sorts by agent', async () => {
    const a = emu.createRunDirect({ prompt: 'a', config: { environment_id: 'env-a' } });
    const b = emu.createRunDirect({ prompt: 'b', config: { skill_spec: 'acme/tools:release' } });
    const c = emu.createRunDirect({ prompt: 'c', parent_run_id: a.run_id });
    const ids = async (q: Parameters<AgentClient['listRuns']>[0]) =>
      (await client.listRuns(q)).runs.map((r) => r.run_id).sort();
    expect(await ids({ environment_id: 'env-a' })).toEqual([a.run_id]);
    expect(await ids({ environment_id: 'empty-environment' })).toEqual([b.run_id, c.run_id].sort());
    expect(await ids({ skill_spec: 'acme/tools:release' })).toEqual([b.run_id]);
    expect(await ids({ ancestor_run_id: a.run_id })).toEqual([c.run_id]);
    expect(await ids({ artifact_type: 'PULL_REQUEST' })).toEqual([]);
    now += 1300;
    expect(await ids({ artifact_type: 'PULL_REQUEST' })).toEqual(
      [a.run_id, b.run_id, c.run_id].sort(),
    );
    const byAgent = await client.listRuns({ sort_by: 'agent', sort_order: 'asc' });
    expect(byAgent.runs[0]!.run_id).toBe(b.run_id);
  });

  it('accepts a create with only config.skill_spec', async () => {
    const res = await client.createRun({ config: { skill_spec: 'acme/tools:release' } });
    expect((await client.getRun(res.run_id)).agent_config?.skill_spec).toBe('acme/tools:release');
  });

  it('answers a follow-up with {followup_id, outcome}', async () => {
    const { run_id } = await client.createRun({ prompt: 'p' });
    const res = await client.withResponse.sendFollowup(run_id, { message: 'more' });
    expect(res.data).toEqual({ followup_id: expect.any(String), outcome: 'queue_pending' });
  });
});

describe('cancel', () => {
  it('cancels a BLOCKED run (waiting for approval is not terminal)', async () => {
    const { run_id } = await client.createRun({ prompt: 'needs approval' });
    emu.setState(run_id, 'BLOCKED');
    await client.cancelRun(run_id);
    expect((await client.getRun(run_id)).state).toBe('CANCELLED');
  });
});
