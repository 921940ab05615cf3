// Targeting as the platform stores it (Graph `targeting`, or the spec's camelCase view), reduced to
// the dimensions two ad sets can overlap on, and a 0-1 similarity between two of them.
import type { Targeting } from './types';

type Json = Record<string, unknown>;

const asObject = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const idsOf = (value: unknown): string[] =>
  asArray(value)
    .map((item) =>
      typeof item === 'string' || typeof item === 'number' ? String(item) : String(asObject(item).id ?? ''),
    )
    .filter((id) => id !== '');

export function parseTargeting(text: string | null): Targeting {
  let raw: Json;
  try {
    raw = asObject(text ? JSON.parse(text) : {});
  } catch {
    raw = {};
  }
  const geo = asObject(raw.geo_locations ?? raw.geoLocations);
  const countries = Array.isArray(raw.geoLocations)
    ? idsOf(raw.geoLocations)
    : idsOf(geo.countries).map((c) => c.toUpperCase());
  const excludedGeo = asObject(raw.excluded_geo_locations ?? raw.excludedGeoLocations);
  const excludedCountries = idsOf(excludedGeo.countries).map((c) => c.toUpperCase());
  const genderValues = asArray(raw.genders).map((g) => String(g).toLowerCase());
  const genders =
    genderValues.length === 0 ||
    genderValues.includes('all') ||
    (genderValues.includes('1') && genderValues.includes('2'))
      ? ['all']
      : genderValues.map((g) => (g === '1' ? 'male' : g === '2' ? 'female' : g));
  const interests = [
    ...idsOf(raw.interests),
    ...asArray(raw.flexible_spec).flatMap((spec) => idsOf(asObject(spec).interests)),
  ];
  const automation = asObject(raw.targeting_automation ?? raw.targetingAutomation);
  const advantage = automation.advantage_audience ?? automation.advantageAudience ?? raw.advantageAudience;
  return {
    countries: [...new Set(countries)].filter((c) => !excludedCountries.includes(c)).sort(),
    ageMin: Number(raw.age_min ?? raw.ageMin ?? 18) || 18,
    ageMax: Number(raw.age_max ?? raw.ageMax ?? 65) || 65,
    genders,
    audiences: [...new Set(idsOf(raw.custom_audiences ?? raw.customAudiences))].sort(),
    interests: [...new Set(interests)].sort(),
    excludedAudiences: [
      ...new Set(idsOf(raw.excluded_custom_audiences ?? raw.excludedCustomAudiences)),
    ].sort(),
    excludedCountries: [...new Set(excludedCountries)].sort(),
    advantageAudience: advantage === 1 || advantage === true || advantage === '1',
  };
}

/** Share of the smaller list the other also holds; no restriction on both sides = everyone. */
function setOverlap(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  // No restriction on one side still contains the other's people for broad dimensions (countries,
  // interests: the unrestricted side reaches them too).
  if (a.length === 0 || b.length === 0) return 1;
  const bs = new Set(b);
  const shared = a.filter((x) => bs.has(x)).length;
  return shared / Math.min(a.length, b.length);
}

/**
 * Custom audiences are lists of people chosen on purpose (customers, site visitors, lookalikes). A
 * list on one side and none on the other is a deliberate split (retargeting vs prospecting), not the
 * same audience twice: an empty list does not count as holding the other's list. Audiences one side
 * excludes are never shared with it.
 */
function audienceOverlap(a: Targeting, b: Targeting): number {
  const aIn = a.audiences.filter((x) => !(b.excludedAudiences ?? []).includes(x));
  const bIn = b.audiences.filter((x) => !(a.excludedAudiences ?? []).includes(x));
  if (a.audiences.length === 0 && b.audiences.length === 0) return 1;
  if (a.audiences.length === 0 || b.audiences.length === 0) return 0;
  if (aIn.length === 0 || bIn.length === 0) return 0;
  const bs = new Set(bIn);
  const shared = aIn.filter((x) => bs.has(x)).length;
  return shared / Math.min(a.audiences.length, b.audiences.length);
}

/**
 * What an ad set can actually reach. With Advantage+ audience, age (above its hard floor), gender,
 * audiences and interests are suggestions Meta may go beyond: only countries and exclusions limit it.
 */
export function effectiveTargeting(t: Targeting): Targeting {
  if (!t.advantageAudience) return t;
  return { ...t, ageMin: Math.min(t.ageMin, 25), ageMax: 65, genders: ['all'], audiences: [], interests: [] };
}

/**
 * Share of the smaller audience that the other one also targets, per dimension, multiplied: 1 for
 * identical targeting, 0 when they cannot meet (different countries, disjoint ages or genders, one
 * excluding the other's audience).
 */
export function targetingOverlap(rawA: Targeting, rawB: Targeting): number {
  return effectiveOverlap(effectiveTargeting(rawA), effectiveTargeting(rawB));
}

/**
 * `targetingOverlap` of two targetings already made effective: the overlap detector reduces each ad
 * set once and compares it with many others.
 */
export function effectiveOverlap(a: Targeting, b: Targeting): number {
  const countries =
    a.countries.length === 0 && b.countries.length === 0 ? 1 : setOverlap(a.countries, b.countries);
  const lo = Math.max(a.ageMin, b.ageMin);
  const hi = Math.min(a.ageMax, b.ageMax);
  const ages = hi < lo ? 0 : (hi - lo + 1) / Math.min(a.ageMax - a.ageMin + 1, b.ageMax - b.ageMin + 1);
  const genders =
    a.genders.includes('all') || b.genders.includes('all') ? 1 : setOverlap(a.genders, b.genders);
  // A broad ad set excluding the other's whole list of people cannot meet it there.
  const excludedByA =
    b.audiences.length > 0 && b.audiences.every((x) => (a.excludedAudiences ?? []).includes(x));
  const excludedByB =
    a.audiences.length > 0 && a.audiences.every((x) => (b.excludedAudiences ?? []).includes(x));
  const audiences = excludedByA || excludedByB ? 0 : audienceOverlap(a, b);
  const interests = setOverlap(a.interests, b.interests);
  return Math.round(countries * ages * genders * audiences * interests * 10_000) / 10_000;
}
