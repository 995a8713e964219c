/**
 * The `place` label of the cost series, bounded: the first places to report a cost keep their
 * own series (a Slack channel `slack:T…:C…`, a repository `github:owner/repo`), up to a
 * limit; every later place shares `other`. A place never moves between series, so each
 * counter stays monotonic.
 */
export const PLACE_SERIES_LIMIT = 50;
export const OTHER_PLACE = 'other';

export function createPlaceLabel(
  limit = PLACE_SERIES_LIMIT,
): (place: string | undefined) => string {
  const named = new Set<string>();
  return (place) => {
    if (place === undefined || place === '') return OTHER_PLACE;
    if (named.has(place)) return place;
    if (named.size >= limit) return OTHER_PLACE;
    named.add(place);
    return place;
  };
}
