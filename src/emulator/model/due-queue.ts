/**
 * A binary min-heap of due transitions, ordered by time (then insertion). Entries carry the
 * run's scheduling generation; stale ones are skipped by the caller when popped.
 */
export interface DueEntry {
  at: number;
  order: number;
  runId: string;
  gen: number;
}

export interface DueQueue {
  push(entry: Omit<DueEntry, 'order'>): void;
  /** The earliest entry if it is due at `now`, removed from the queue. */
  popDue(now: number): DueEntry | undefined;
  size(): number;
}

function before(a: DueEntry, b: DueEntry): boolean {
  return a.at < b.at || (a.at === b.at && a.order < b.order);
}

export function createDueQueue(): DueQueue {
  const heap: DueEntry[] = [];
  let order = 0;

  function swap(i: number, j: number): void {
    const t = heap[i] as DueEntry;
    heap[i] = heap[j] as DueEntry;
    heap[j] = t;
  }

  function up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i] as DueEntry, heap[parent] as DueEntry)) return;
      swap(i, parent);
      i = parent;
    }
  }

  function down(i: number): void {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && before(heap[l] as DueEntry, heap[m] as DueEntry)) m = l;
      if (r < heap.length && before(heap[r] as DueEntry, heap[m] as DueEntry)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  }

  return {
    push(entry) {
      heap.push({ ...entry, order: order++ });
      up(heap.length - 1);
    },
    popDue(now) {
      const top = heap[0];
      if (!top || top.at > now) return undefined;
      const last = heap.pop() as DueEntry;
      if (heap.length > 0) {
        heap[0] = last;
        down(0);
      }
      return top;
    },
    size: () => heap.length,
  };
}
