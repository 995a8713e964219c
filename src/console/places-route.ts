/**
 * The places page (`/console/places`): each place's spend this month with its budget, by
 * spend or by name; a viewer sees public places only.
 */
import type { OperatorQueries, Store } from '../core/ports/index.js';
import { monthNameUtc, monthStartUtc } from '../core/place.js';
import { sendPage } from './page-response.js';
import { maySee } from './viewer-scope.js';
import type { PageHandler } from './page-response.js';
import { placeSpend } from './place-spend.js';
import { placesBody, placesPage } from './pages/places-page.js';

export function createPlacesRoute(deps: {
  operator: OperatorQueries;
  store: Pick<Store, 'settings'>;
  isPublic: (threadKey: string) => Promise<boolean>;
}): PageHandler {
  const { operator, store, isPublic } = deps;
  return async function showPlaces(req, res, url, ctx) {
    const sort = url.searchParams.get('sort') === 'place' ? 'place' : 'spend';
    const places = await placeSpend(
      { operator, store },
      monthStartUtc(ctx.now),
      (threadKey) => maySee(ctx, threadKey, isPublic),
      sort,
    );
    const view = { places, month: monthNameUtc(ctx.now), sort } as const;
    sendPage(req, res, ctx, view, placesPage, placesBody);
  };
}
