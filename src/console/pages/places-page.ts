/** The places and what each spent this month: budget, share used, runs; sortable by spend. */
import { formatCost, formatUsd } from '../../core/message/usage-text.js';
import { html } from '../html.js';
import type { Html } from '../html.js';
import type { PlaceSort, PlaceSpend } from '../place-spend.js';
import { placeLabelOf } from '../places.js';
import { layout, rowsTable } from './layout.js';
import type { PageContext } from './layout.js';

export interface PlacesView {
  places: PlaceSpend[];
  /** "November 2026": the calendar month (UTC) counted. */
  month: string;
  sort: PlaceSort;
}

function used(place: PlaceSpend): string {
  if (place.budgetUsd === undefined) return '–';
  if (place.budgetUsd === 0) return place.spentUsd > 0 ? 'over' : '0 %';
  return `${Math.floor((place.spentUsd / place.budgetUsd) * 100)} %`;
}

function sortLinks(view: PlacesView): Html {
  const link = (sort: PlaceSort, label: string) =>
    view.sort === sort
      ? html`<strong>${label}</strong>`
      : html`<a href="/console/places?sort=${sort}" id="sort-${sort}">${label}</a>`;
  return html`<p class="muted small">
    Sorted ${link('spend', 'by spend')} · ${link('place', 'by place')}
  </p>`;
}

export function placesBody(view: PlacesView, _ctx: PageContext): Html {
  const rows = view.places.map((p) => {
    const over = p.budgetUsd !== undefined && p.spentUsd >= p.budgetUsd;
    return html`<tr data-place="${p.scope}">
      <td data-label="Place">
        <a href="/console?${new URLSearchParams({ place: p.scope }).toString()}"
          >${placeLabelOf(p.scope)}</a
        >
        <div class="muted small">${p.scope}</div>
      </td>
      <td data-label="Spend ≈">${p.costed === 0 ? '–' : formatCost(p.spentUsd)}</td>
      <td data-label="Budget">${p.budgetUsd === undefined ? '–' : formatUsd(p.budgetUsd)}</td>
      <td data-label="Used" class="${over ? 'bad' : ''}">${used(p)}</td>
      <td data-label="Runs">${String(p.runs)}</td>
    </tr>`;
  });
  return html`<h1>Places</h1>
    <p class="muted">
      What the runs started in each place this month (${view.month}, UTC) cost, as the service
      approximately reported it, against the place's monthly budget.
    </p>
    ${sortLinks(view)}
    ${rowsTable(
      html`class="rows" id="places"`,
      ['Place', 'Spend ≈', 'Budget', 'Used', 'Runs'],
      rows,
      'No runs this month.',
    )}`;
}

export function placesPage(view: PlacesView, ctx: PageContext): Html {
  return layout('Places', ctx, 'places', placesBody(view, ctx));
}
