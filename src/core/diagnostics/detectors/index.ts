// The six detectors, run in an order that lets CPA degradation leave out what the others explain.
import { atLeast } from '../series';
import type { Finding } from '../types';
import { detectAudienceSaturation } from './audience-saturation';
import { detectAuctionOverlap } from './auction-overlap';
import type { DetectorContext } from './context';
import { detectCpaDegradation } from './cpa-degradation';
import { detectCreativeFatigue } from './creative-fatigue';
import { detectLearningPhaseStall } from './learning-phase-stall';
import { detectPacingIssue } from './pacing-issue';

export { detectorContext, type DetectorContext } from './context';
export {
  detectAudienceSaturation,
  detectAuctionOverlap,
  detectCpaDegradation,
  detectCreativeFatigue,
  detectLearningPhaseStall,
  detectPacingIssue,
};

export function runDetectors(ctx: DetectorContext): Finding[] {
  const saturation = detectAudienceSaturation(ctx);
  const overlap = detectAuctionOverlap(ctx, new Set(saturation.map((f) => f.affectedEntity.id)));
  const overlapping = new Set<string>();
  for (const f of overlap) {
    overlapping.add(f.affectedEntity.id);
    if ('overlappingAdSets' in f.evidence)
      for (const s of f.evidence.overlappingAdSets) overlapping.add(s.id);
  }
  // Meta: overlapping ad sets "can't spend their full budget". That under-delivery is the overlap's
  // symptom, reported (with its numbers) in the overlap issue, not as a second, separate problem.
  // Likewise an ad set stuck in learning that cannot spend its budget: the stall (too few results, a
  // narrow audience, a cap) is the finding its unspent budget belongs to.
  const stalls = detectLearningPhaseStall(ctx);
  const stalled = new Set(stalls.map((f) => f.affectedEntity.id));
  const pacing = detectPacingIssue(ctx).filter(
    (f) =>
      !('direction' in f.evidence && f.evidence.direction === 'UNDER') ||
      (f.affectedEntity.type === 'campaign'
        ? overlap.length === 0
        : !overlapping.has(f.affectedEntity.id) && !stalled.has(f.affectedEntity.id)),
  );
  // A saturating audience whose CPM climbs (the auction pricing a pool run dry) wears its ads' CTR
  // too; one ad dropping further while the ad set's own CTR held within the fatigue bar is that
  // audience's wear, reported once, as saturation (the mirror of saturation leaving a CTR fall with
  // CPM flat to fatigue).
  const audienceWorn = new Set(
    saturation
      .filter(
        (f) =>
          atLeast(Number(f.facts.cpmRise), ctx.th.saturationCpmRise) &&
          Number(f.facts.ctrDrop) < ctx.th.fatigueCtrDrop,
      )
      .map((f) => f.affectedEntity.id),
  );
  const findings = [
    ...stalls,
    ...detectCreativeFatigue(ctx).filter((f) => !audienceWorn.has(f.affectedEntity.id)),
    ...saturation,
    ...overlap,
    ...pacing,
  ];
  const explained = new Set<string>(overlapping);
  for (const f of findings) {
    if (f.type === 'PACING_ISSUE') continue;
    const adSetId = f.facts.adSetId;
    if (typeof adSetId === 'string') explained.add(adSetId);
  }
  findings.push(...detectCpaDegradation(ctx, explained));
  return findings;
}
