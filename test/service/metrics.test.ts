import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/service/metrics.js';

describe('createMetrics', () => {
  it('binds every core event to a Prometheus series', async () => {
    const m = createMetrics({ defaultMetrics: false });
    m.metrics.inc('triggers_received', { platform: 'slack', kind: 'slash_command' });
    m.metrics.inc('duplicates_dropped', { platform: 'github' });
    m.metrics.inc('runs_created', { platform: 'slack' });
    m.metrics.inc('followups_sent', { platform: 'slack' });
    m.metrics.inc('cancels', { platform: 'slack', outcome: 'cancelled' });
    m.metrics.inc('outbox_delivered', { platform: 'github' });
    m.metrics.inc('outbox_delivery_failures', { platform: 'slack', code: 'rate_limited' }, 2);
    m.metrics.observe('tracker_cycle_seconds', 0.02);
    m.metrics.observe('trigger_to_ack_seconds', 0.004, { platform: 'slack' });
    m.metrics.observe('state_change_to_notification_seconds', 1.5, { platform: 'github' });
    m.metrics.set('live_runs_tracked', 3);
    m.metrics.set('outbox_depth', 7);
    m.metrics.set('inbox_depth', 1);
    m.agentRequestHook({
      method: 'GET',
      route: 'GET /agent/runs',
      status: 200,
      durationMs: 12,
      attempt: 0,
    });
    m.agentRequestHook({
      method: 'POST',
      route: 'POST /agent/runs',
      durationMs: 30,
      error: 'connection',
    });
    m.httpRequestHook({ method: 'POST', route: '/slack/events', status: 200, durationMs: 3 });

    const { contentType, body } = await m.render();
    expect(contentType).toMatch(/^text\/plain/);
    const expected = [
      'agent_relay_triggers_received_total{platform="slack",kind="slash_command"} 1',
      'agent_relay_duplicates_dropped_total{platform="github"} 1',
      'agent_relay_runs_created_total{platform="slack"} 1',
      'agent_relay_followups_sent_total{platform="slack"} 1',
      'agent_relay_cancels_total{platform="slack",outcome="cancelled"} 1',
      'agent_relay_outbox_delivered_total{platform="github"} 1',
      'agent_relay_outbox_delivery_failures_total{platform="slack",code="rate_limited"} 2',
      'agent_relay_tracker_cycle_seconds_count 1',
      'agent_relay_trigger_to_ack_seconds_count{platform="slack"} 1',
      'agent_relay_state_change_to_notification_seconds_sum{platform="github"} 1.5',
      'agent_relay_live_runs_tracked 3',
      'agent_relay_outbox_depth 7',
      'agent_relay_inbox_depth 1',
      'agent_relay_service_requests_total{method="GET",endpoint="GET /agent/runs",status="200"} 1',
      'agent_relay_service_requests_total{method="POST",endpoint="POST /agent/runs",status="connection"} 1',
      'agent_relay_service_request_duration_seconds_count{method="GET",endpoint="GET /agent/runs"} 1',
      'agent_relay_http_requests_total{method="POST",route="/slack/events",status="200"} 1',
    ];
    for (const line of expected) expect(body).toContain(line);
  });

  it('drops labels a series does not declare instead of throwing', async () => {
    const m = createMetrics({ defaultMetrics: false });
    expect(() =>
      m.metrics.inc('runs_created', { platform: 'slack', userId: 'U123', prompt: 'x' }),
    ).not.toThrow();
    const { body } = await m.render();
    expect(body).toContain('agent_relay_runs_created_total{platform="slack"} 1');
    expect(body).not.toContain('U123');
  });

  it('keeps instances apart and includes process metrics by default', async () => {
    const a = createMetrics();
    const b = createMetrics();
    a.metrics.inc('cancels');
    expect((await a.render()).body).toContain('agent_relay_cancels_total 1');
    expect((await b.render()).body).not.toContain('agent_relay_cancels_total 1');
    expect((await a.render()).body).toContain('process_cpu_user_seconds_total');
  });
});

describe('gaugeSource', () => {
  it('reads a gauge at scrape time, and a failing source does not break the scrape', async () => {
    const m = createMetrics({ defaultMetrics: false });
    let depth = 2;
    m.gaugeSource('outbox_depth', async () => depth);
    let fail = false;
    m.gaugeSource('inbox_depth', () =>
      fail ? Promise.reject(new Error('closed')) : Promise.resolve(3),
    );
    expect((await m.render()).body).toContain('agent_relay_outbox_depth 2');
    fail = true;
    depth = 5;
    const { body } = await m.render();
    expect(body).toContain('agent_relay_outbox_depth 5');
    expect(body).toContain('agent_relay_inbox_depth 3');
  });
});
