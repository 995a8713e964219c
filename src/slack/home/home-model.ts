/**
 * What App Home shows one person, read fresh each time: the workspace's recent runs from the
 * store, the service's detail for the viewer's own (a few, bounded), and the runs of others
 * only from channels the viewer is a member of. A failure to list those channels shows no
 * one else's run (privacy first).
 */
import { monthNameUtc, monthStartUtc } from '../../core/place.js';
import { z } from 'zod';
import { viewOf } from '../../core/message/run-view.js';
import type { Clock, Logger, RunRecord } from '../../core/ports/index.js';
import { decodeThreadKey } from '../../core/thread-key.js';
import { slackErrorName } from '../api/delivery-errors.js';
import type { WebClient } from '../api/web-client.js';
import type { HomeSource } from './home-source.js';
import type { HomeModel, HomeRun } from './home-view.js';

export interface HomeModelDeps {
  source: HomeSource;
  clock: Clock;
  logger: Logger;
}

export const RECENT = 200;
const DETAILED = 10;
const Channels = z.object({
  channels: z.array(z.object({ id: z.string() })).default([]),
  response_metadata: z.object({ next_cursor: z.string().optional() }).optional(),
});
function threadUrl(team: string, channel: string, threadTs: string): string | undefined {
  if (threadTs === '') return `https://app.slack.com/client/${team}/${channel}`;
  return `https://app.slack.com/client/${team}/${channel}/thread/${channel}-${threadTs}`;
}

async function channelsOf(client: WebClient, user: string): Promise<Set<string>> {
  const found = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < 5; page++) {
    const raw = await client.users.conversations({
      user,
      types: 'public_channel,private_channel',
      exclude_archived: true,
      limit: 200,
      ...(cursor ? { cursor } : {}),
    });
    const parsed = Channels.parse(raw);
    for (const c of parsed.channels) found.add(c.id);
    cursor = parsed.response_metadata?.next_cursor || undefined;
    if (!cursor) break;
  }
  return found;
}

async function homeRun(
  deps: HomeModelDeps,
  record: RunRecord,
  detailed: boolean,
  others: boolean,
): Promise<HomeRun | undefined> {
  const addr = decodeThreadKey(record.threadKey);
  if (addr?.platform !== 'slack') return undefined;
  const now = deps.clock.now();
  const detail = detailed ? await deps.source.runDetail(record.runId) : undefined;
  const item = detail ?? {
    run_id: record.runId,
    title: record.title,
    state: record.state,
    created_at: new Date(record.createdAt).toISOString(),
    updated_at: record.serviceUpdatedAt ?? new Date(record.updatedAt).toISOString(),
  };
  const url = threadUrl(addr.team, addr.channel, addr.threadTs);
  return {
    view: viewOf(record, item, now),
    channel: addr.channel,
    ...(url ? { threadUrl: url } : {}),
    ...(others ? { requesterId: record.requester.id } : {}),
  };
}

export async function loadHomeModel(
  deps: HomeModelDeps,
  client: WebClient,
  team: string,
  user: string,
): Promise<Omit<HomeModel, 'showChannels'>> {
  const records = await deps.source.recentRuns(team, RECENT);
  const mineRecords = records.filter((r) => r.requester.id === user);
  // The service's detail for the live runs first, then the most recent, DETAILED at most.
  const detailed = new Set(
    mineRecords
      .filter((r) => r.tracked)
      .slice(0, DETAILED)
      .map((r) => r.runId),
  );
  for (const r of mineRecords) if (detailed.size < DETAILED) detailed.add(r.runId);
  const others = records.filter((r) => r.requester.id !== user);
  let visible: RunRecord[] = [];
  if (others.length > 0) {
    try {
      const member = await channelsOf(client, user);
      visible = others.filter((r) => {
        const addr = decodeThreadKey(r.threadKey);
        return addr?.platform === 'slack' && member.has(addr.channel);
      });
    } catch (err) {
      deps.logger.warn(
        { err, slackError: slackErrorName(err) },
        "could not list the viewer's channels",
      );
    }
  }
  const [mine, channels, personal] = await Promise.all([
    Promise.all(mineRecords.map((r) => homeRun(deps, r, detailed.has(r.runId), false))),
    Promise.all(visible.map((r) => homeRun(deps, r, false, true))),
    deps.source.personalDefaults(team, user),
  ]);
  const month = await viewerMonthOf(deps, team, user, mineRecords);
  return {
    mine: mine.filter((r) => r !== undefined),
    ...(month ? { month } : {}),
    channels: channels.filter((r) => r !== undefined),
    personal,
  };
}

/**
 * The viewer's month: summed by the store over all their runs in the workspace when the
 * source can (not only the recent runs listed); a failed read shows no month.
 */
async function viewerMonthOf(
  deps: HomeModelDeps,
  team: string,
  user: string,
  mine: RunRecord[],
): Promise<HomeModel['month']> {
  const now = deps.clock.now();
  if (deps.source.viewerMonth === undefined) return viewerMonth(mine, now);
  try {
    const month = await deps.source.viewerMonth(team, user, monthStartUtc(now));
    if (month.runs === 0) return undefined;
    return {
      name: monthNameUtc(now),
      spentUsd: Math.round(month.spentUsd * 1e6) / 1e6,
      runs: month.runs,
    };
  } catch (err) {
    deps.logger.warn({ err }, "could not read the viewer's month");
    return undefined;
  }
}

/** The viewer's runs started this calendar month (UTC) that reported a cost, summed. */
function viewerMonth(records: RunRecord[], now: number): HomeModel['month'] {
  const since = monthStartUtc(now);
  const costs = records.flatMap((r) =>
    r.createdAt >= since && r.costUsd !== undefined ? [r.costUsd] : [],
  );
  if (costs.length === 0) return undefined;
  const spentUsd = Math.round(costs.reduce((a, b) => a + b, 0) * 1e6) / 1e6;
  return { name: monthNameUtc(now), spentUsd, runs: costs.length };
}
