/**
 * Fields newer services send and older ones do not: read when present, never required.
 */
import { describe, expect, it } from 'vitest';
import { artifactLink } from '../../../src/core/message/run-links.js';
import { toRunView } from '../../../src/core/message/run-view.js';

describe('newer run fields', () => {
  it('a pull request says where it stands when the service tells', () => {
    const data = { url: 'https://github.com/octo/widgets/pull/7', branch: 'agent/fix' };
    expect(
      artifactLink({ artifact_type: 'PULL_REQUEST', data: { ...data, status: 'MERGED' } }),
    ).toMatchObject({ label: 'PR: octo/widgets#7 (merged)' });
    expect(artifactLink({ artifact_type: 'PULL_REQUEST', data })).toMatchObject({
      label: 'PR: octo/widgets#7',
    });
  });

  it('finished_at ends a run time computed here (a later update does not lengthen it)', () => {
    const run = {
      run_id: 'r',
      title: 't',
      state: 'SUCCEEDED',
      started_at: '2030-01-01T00:00:00.000Z',
      finished_at: '2030-01-01T00:00:30.000Z',
      updated_at: '2030-01-01T00:05:00.000Z',
    };
    expect(toRunView({ run }).runTime).toBe('30s');
    const { finished_at: _omitted, ...older } = run;
    expect(toRunView({ run: older }).runTime).toBe('5m');
  });
});
