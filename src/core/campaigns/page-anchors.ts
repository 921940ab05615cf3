// Where the pages of the workspace's campaign list by name begin, remembered while that list is
// unchanged: a page seeks from the nearest anchor at or before it through the name index and skips
// only the rows between, instead of walking every campaign before it (page 1,600 of 50,000 campaigns
// walked 40,000 index entries). A script reading every page in turn walks the index once, not once per
// page. An anchor is a campaign's (name, id) at an offset of the list, kept under the list's version.

export interface Anchor {
  offset: number;
  name: string;
  id: string;
}

/** Anchors kept per list (a reader's scope, order and version); lists past this are let go oldest first. */
const MAX_LISTS = 200;
const MAX_ANCHORS_PER_LIST = 2_000;

export class PageAnchors {
  /** Per list, its anchors in offset order. */
  private readonly lists = new Map<string, Anchor[]>();

  /** The anchor at or nearest before `offset` in `list`, if any. */
  nearest(list: string, offset: number): Anchor | null {
    const anchors = this.lists.get(list);
    if (!anchors) return null;
    return anchors[after(anchors, offset) - 1] ?? null;
  }

  remember(list: string, anchor: Anchor): void {
    let anchors = this.lists.get(list);
    if (!anchors) {
      if (this.lists.size >= MAX_LISTS) this.lists.delete(this.lists.keys().next().value as string);
      anchors = [];
      this.lists.set(list, anchors);
    }
    const at = after(anchors, anchor.offset);
    if (anchors[at - 1]?.offset === anchor.offset || anchors.length >= MAX_ANCHORS_PER_LIST) return;
    anchors.splice(at, 0, anchor);
  }
}

/** The index of the first anchor past `offset` (anchors are in offset order): a binary search. */
function after(anchors: readonly Anchor[], offset: number): number {
  let low = 0;
  let high = anchors.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((anchors[middle] as Anchor).offset <= offset) low = middle + 1;
    else high = middle;
  }
  return low;
}
